// The direction of src/'s imports (issue 15, "One direction"), checked by `npm run lint:deps`:
//   composition roots → features → invoices (feature services → ledger) → parties → platform → common.
// A layer imports its own layer and the layers below it. Type-only imports count: they are dependencies of
// the design too, and with emitDecoratorMetadata a constructor parameter's type becomes a runtime import.
// (forwardRef is not a file dependency; eslint's no-restricted-imports forbids it, see eslint.config.js.)

const common = '^src/common/';
// Platform: what every feature stands on and which knows no feature. auth is the principal, its guard and
// decorators (every controller uses them); openapi is the document's shared schemas and decorators (the
// resource schemas belong next to their serializers); idempotency is an interceptor the controllers use;
// connectors are the outbound HTTP clients; letters render PDFs. http is where the HTTP pieces of common
// may move to.
const platform = '^src/(config|database|logging|http|jobs|documents|mail|letters|connectors|openapi|idempotency|auth)/';
const parties = '^src/(customers|contacts|companies)/';
const invoices = '^src/invoices/';
const ledger = '^src/invoices/ledger/';
const features = '^src/(shipping|dunning|push|erp-pull|api-keys|oauth|health|web)/';
// Composition roots name every part of the application: the Nest root module and the entry points, and
// TypeORM's entity list with the data source and migration runner built on it. Only entry points, tests and
// benchmarks import them.
const roots = [
  '^src/(main|app[.]module|app[.]setup)[.]ts$',
  // The hot reads' table names the controllers whose routes it answers (src/http/hot-reads).
  '^src/app[.]hot-routes[.]ts$',
  '^src/cli/',
  // The OpenAPI document registers every feature's response schemas.
  '^src/openapi/(write-openapi|document)[.]ts$',
  '^src/database/(entities|data-source|migrate|migrate[.]main)[.]ts$',
];
const specs = '[.]spec[.]ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Cycles make a module graph Nest can only resolve with forwardRef, and code that cannot be read bottom-up.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'common-imports-nothing-of-src',
      severity: 'error',
      comment: 'src/common is the bottom layer: it imports nothing else of src (move HTTP pieces that need more to src/http).',
      from: { path: common },
      to: { path: '^src/', pathNot: common },
    },
    {
      name: 'platform-imports-only-platform-and-common',
      severity: 'error',
      comment: 'Platform folders know no party, invoice or feature folder.',
      from: { path: platform, pathNot: [...roots, specs] },
      to: { path: '^src/', pathNot: [common, platform] },
    },
    {
      name: 'parties-import-no-invoices-or-features',
      severity: 'error',
      comment: 'Customers, contacts and companies stand below invoices and the features that use them.',
      from: { path: parties },
      to: { path: [invoices, features] },
    },
    {
      name: 'invoices-import-no-feature',
      severity: 'error',
      comment: 'The invoice feature (and its ledger) imports no feature folder; features call the ledger, not the other way round.',
      from: { path: invoices },
      to: { path: features },
    },
    {
      name: 'ledger-imports-no-invoice-service-or-controller',
      severity: 'error',
      comment: "The ledger is below the invoice feature's services and controllers.",
      from: { path: ledger },
      to: { path: '^src/invoices/[^/]+[.](service|controller)[.]ts$' },
    },
    {
      name: 'no-foreign-controller',
      severity: 'error',
      comment: 'A controller is the top of its folder: only its own module (or a composition root) imports it.',
      from: { path: '^src/([^/]+)/', pathNot: roots },
      to: { path: '[.]controller[.]ts$', pathNot: '^src/$1/' },
    },
    {
      name: 'only-roots-import-roots',
      severity: 'error',
      comment: 'The composition roots name every part of the application; nothing in a layer may depend on them.',
      from: { path: '^src/', pathNot: roots },
      to: { path: roots },
    },
    {
      name: 'src-imports-no-test-or-bench',
      severity: 'error',
      comment: 'The service does not depend on its tests or benchmarks (unit specs next to the code may use test/support).',
      from: { path: '^src/', pathNot: specs },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'no-dev-dependency-in-src',
      severity: 'error',
      comment: 'The image installs only `dependencies`: src (except unit specs) imports no devDependency at run time.',
      from: { path: '^src/', pathNot: specs },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'], pathNot: 'node_modules/@types/' },
    },
    {
      name: 'no-non-package-json',
      severity: 'error',
      comment: 'A package imported but not declared in package.json is there by accident (hoisting) and may vanish.',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to no file.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'not-to-spec',
      severity: 'error',
      comment: 'Nothing imports a spec file; shared test code lives in test/support.',
      from: {},
      to: { path: specs },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      archi: { collapsePattern: '^(src|test|bench)/[^/]+|node_modules/(@[^/]+/[^/]+|[^/]+)' },
    },
  },
};
