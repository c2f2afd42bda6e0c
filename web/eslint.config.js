// ESLint for the SPA: typescript-eslint (type-aware), the rules of hooks, and the layer rule that
// keeps features apart (see docs/ARCHITECTURE.md, "The SPA").
import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** Every folder under src/features is a feature. */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

/**
 * The layers: a feature reaches another feature only through that feature's public entry
 * (`src/features/<name>/index.ts`, imported as `@/features/<name>`), and never reaches into
 * `src/app` (the shell that composes the features: providers, router). The shared layers
 * (`src/components`, `src/lib`, `src/api`) know neither features nor the app.
 */
const layerZones = [
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`, ...features.filter((other) => other !== name).map((other) => `./${other}/index.ts`)],
    message: `Import another feature through its public entry '@/features/<name>' (its index.ts), not its files.`,
  })),
  {
    target: './src/features',
    from: './src/app',
    message: 'Features do not import the app shell; pass what they need in (props, router context).',
  },
  ...['./src/components', './src/lib', './src/api'].map((target) => ({
    target,
    from: ['./src/features', './src/app'],
    message: 'The shared layers (components, lib, api) do not import features or the app shell.',
  })),
]

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'test-results/', 'e2e/output/', 'coverage/', 'src/routeTree.gen.ts', 'src/api/schema.d.ts'],
  },
  js.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}', 'vite.config.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.app.json' })],
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      // an import the resolver cannot find would pass the layer rule unseen
      'import-x/no-unresolved': 'error',
      // `_` marks a parameter or binding that is there on purpose but unused
      // the router's `redirect()` and `notFound()` are thrown by design and are not errors
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'package', package: '@tanstack/router-core', name: ['Redirect', 'NotFoundError'] }] },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/**/*.worklet.js'],
    languageOptions: { globals: globals.audioWorklet },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // the end-to-end tests run in Node and hand functions to the browser (`page.evaluate`)
    files: ['e2e/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
)
