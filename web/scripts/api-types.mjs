// Generates src/api/schema.d.ts from the api's committed OpenAPI document.
// With --check it generates into a temporary file and fails when the committed types differ.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const spec = resolve(web, '../api/openapi.json')
const schema = resolve(web, 'src/api/schema.d.ts')
const cli = resolve(web, 'node_modules/openapi-typescript/bin/cli.js')
const check = process.argv.includes('--check')

if (!existsSync(spec)) {
  console.error(`api:types: the OpenAPI document ${relative(web, spec)} does not exist`)
  process.exit(1)
}

function generate(output) {
  execFileSync(process.execPath, [cli, spec, '--output', output], { stdio: ['ignore', 'ignore', 'inherit'] })
}

if (!check) {
  generate(schema)
  console.log(`api:types: wrote ${relative(web, schema)}`)
  process.exit(0)
}

const dir = mkdtempSync(join(tmpdir(), 'api-types-'))
try {
  const fresh = join(dir, 'schema.d.ts')
  generate(fresh)
  const committed = existsSync(schema) ? readFileSync(schema, 'utf8') : null
  if (committed === readFileSync(fresh, 'utf8')) {
    console.log(`api:check: ${relative(web, schema)} matches ${relative(web, spec)}`)
  } else {
    console.error(
      committed === null
        ? `api:check: ${relative(web, schema)} is missing; run \`npm run api:types\``
        : `api:check: ${relative(web, schema)} is out of date with ${relative(web, spec)}; run \`npm run api:types\` and commit the result`,
    )
    process.exitCode = 1
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
