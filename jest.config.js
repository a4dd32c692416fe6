// Jest runs in native ESM mode (NestJS 12 is ESM-only); swc strips types and keeps decorator metadata.
export default {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '\\.(spec|e2e-spec)\\.ts$',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  globalSetup: '<rootDir>/test/setup/global-setup.mjs',
  globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
  // Every supertest answer is checked against openapi.json.
  setupFilesAfterEnv: ['<rootDir>/test/setup/validate-responses.ts'],
  testTimeout: 30000,
};
