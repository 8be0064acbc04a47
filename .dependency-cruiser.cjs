/** Dependency rules `npm test` checks (npm run check:dependencies). */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle-between-admin-slices',
      comment: 'admin-api slices depend on each other in one direction only: a slice offers a read model, lower layers never import the slices above.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^services/admin-api/src/[^/]+' },
      to: { circular: true },
    },
    {
      name: 'admin-store-private-to-its-slice',
      comment: 'a slice keeps its store to itself and offers the rest a read model; rules/ is the shared lower layer.',
      severity: 'error',
      from: { path: '^services/admin-api/src/([^/]+)/' },
      to: { path: '^services/admin-api/src/[^/]+/[^/]+-store[.]ts$', pathNot: ['^services/admin-api/src/$1/', '^services/admin-api/src/rules/'] },
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
      to: { path: '^(services|launcher|console)/|node_modules/@bunting/(admin-api|event-log|frontend-api|insights|signals|launcher)' },
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
    exclude: { path: 'node_modules|/fixtures/' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    combinedDependencies: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
