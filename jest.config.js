// Jest runs in native ESM mode (NestJS 12 is ESM-only); swc strips types and keeps decorator metadata.
export default {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '\\.(spec|e2e-spec)\\.ts$',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest'],
    // The web app's TSX templates (src/web): the same settings as .swcrc, with JSX through @kitajs/html.
    '^.+\\.tsx$': [
      '@swc/jest',
      {
        swcrc: false,
        sourceMaps: 'inline',
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', tsx: true, decorators: true },
          transform: {
            legacyDecorator: true,
            decoratorMetadata: true,
            useDefineForClassFields: false,
            react: { runtime: 'automatic', importSource: '@kitajs/html' },
          },
          keepClassNames: true,
        },
        module: { type: 'es6' },
      },
    ],
  },
  globalSetup: '<rootDir>/test/setup/global-setup.mjs',
  globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
  // Each test file's TEST_DB_URL: its worker's own database.
  setupFiles: ['<rootDir>/test/setup/worker-database.mjs'],
  // Every supertest answer is checked against openapi.json.
  setupFilesAfterEnv: ['<rootDir>/test/setup/validate-responses.ts'],
  testTimeout: 30000,
};
