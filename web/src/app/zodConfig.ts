import { z } from 'zod'

// The api's Content-Security-Policy allows no eval: zod must not probe for it (the probe, a
// `Function('')` call made when a schema is created, is refused and reported as a violation),
// nor compile parsers with it. Imported first by main.tsx, before any module makes a schema.
z.config({ jitless: true })
