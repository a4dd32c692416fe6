// Jest's setupFiles: the test file's TEST_DB_URL names its worker's database (test/setup/global-setup.mjs
// made one per worker), so that suites running side by side never empty each other's tables. A run in
// band (one file, or --runInBand) is worker 1.
const prefix = process.env.TEST_DB_NAME_PREFIX;
if (prefix && process.env.TEST_DB_URL) {
  const url = new URL(process.env.TEST_DB_URL);
  url.pathname = `/${prefix}${process.env.JEST_WORKER_ID ?? '1'}`;
  process.env.TEST_DB_URL = url.toString();
}
