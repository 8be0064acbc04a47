/** Dependency rules `npm test` checks (npm run check:dependencies). */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle-between-slices',
      comment:
        'the slices of a service depend on each other in one direction only: a slice offers a read model, lower layers never import the slices above.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^services/[^/]+/src/[^/]+' },
      to: { circular: true },
    },
    {
      name: 'store-private-to-its-slice',
      comment:
        "a slice keeps its store to itself and offers the rest a read model; a service's shared lower layer (admin-api's rules/, insights' facts/) is the exception.",
      severity: 'error',
      from: { path: '^services/([^/]+)/src/([^/]+)/' },
      to: {
        path: '^services/[^/]+/src/[^/]+/[^/]+-store[.]ts$',
        pathNot: ['^services/$1/src/$2/', '^services/$1/src/(rules|facts)/'],
      },
    },
    {
      name: 'no-file-cycles',
      severity: 'error',
      from: { path: '^(services|libs|launcher|console)/' },
      to: { circular: true },
    },
    {
      name: 'libs-import-no-service',
      comment: 'libs sit below every service and the launcher.',
      severity: 'error',
      from: { path: '^libs/' },
      to: {
        path: '^(services|launcher|console)/|node_modules/@bunting/(admin-api|event-log|frontend-api|insights|signals|launcher)',
      },
    },
    {
      name: 'services-import-no-other-service',
      comment: 'a service learns of another through events, NATS request-reply and libs/contracts, never its code.',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // A service's tests start the stack through the launcher, which mounts the service again: that loop is the tests',
    // not a dependency of one slice on another.
    exclude: { path: 'node_modules|/fixtures/|^services/[^/]+/src/.*[.]test[.]ts$' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    combinedDependencies: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
