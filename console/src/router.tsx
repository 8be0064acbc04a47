import type { ComponentType } from 'react';
import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, Navigate } from 'react-router';
import { contextFieldsQuery } from './context-fields/context-field-queries.ts';
import { featureTypesQuery } from './features/feature-queries.ts';
import { segmentsQuery } from './segments/segment-queries.ts';
import { strategyDefinitionsQuery } from './strategy-definitions/strategy-definition-queries.ts';
import { tagsQuery } from './tags/tag-queries.ts';
import { ReleaseTemplateAddress } from './release-templates/unleash-addresses.tsx';
import { queryClient } from './api/query-client.ts';
import { meQuery } from './api/session.ts';
import { readFilters, searchQuery } from './features/flag-filters.ts';
import { flagQuery, flagSearchQuery } from './feature-state/flag-queries.ts';
import { AppLayout } from './layout/app-layout.tsx';
import { projectQuery, projectsQuery } from './projects/project-queries.ts';

// Each page is its own chunk, loaded by the router as navigation starts (alongside the page's data), so the
// first load carries only what the page opened needs.
type PageModule = { default: ComponentType };
const firstLoad = (
  <Center h="100vh">
    <Loader aria-label="Loading" />
  </Center>
);
const page = (load: () => Promise<PageModule>) => () => load().then((module) => ({ Component: module.default }));

/**
 * Starts fetching what a page shows while its code is still loading, instead of after: the loader does not wait
 * for the answers, so navigation is never held up by them.
 */
const prefetch = (...queries: { queryKey: readonly unknown[] }[]) => {
  for (const query of queries) void queryClient.prefetchQuery(query);
  return null;
};

/** Addresses follow Unleash's UI paths, so links people already have open the same page here. */
export const router = createBrowserRouter([
  { path: '/login', lazy: page(() => import('./sign-in/login-page.tsx')), hydrateFallbackElement: firstLoad },
  // Opened from links people are sent, signed out.
  { path: '/new-user', lazy: page(() => import('./invites/new-user-page.tsx')), hydrateFallbackElement: firstLoad },
  {
    path: '/reset-password',
    lazy: page(() => import('./sign-in/password/reset-password-page.tsx')),
    hydrateFallbackElement: firstLoad,
  },
  {
    path: '/forgotten-password',
    lazy: page(() => import('./sign-in/password/forgotten-password-page.tsx')),
    hydrateFallbackElement: firstLoad,
  },
  {
    element: <AppLayout />,
    hydrateFallbackElement: firstLoad,
    loader: () => prefetch(meQuery()),
    children: [
      { path: '/', element: <Navigate to="/projects" replace /> },
      {
        path: '/projects',
        lazy: page(() => import('./projects/projects-page.tsx')),
        loader: () => prefetch(projectsQuery()),
      },
      {
        path: '/projects/:projectId',
        lazy: page(() => import('./features/project-flags-page.tsx')),
        loader: ({ params, request }) => {
          const project = params.projectId ?? '';
          const filters = readFilters(new URL(request.url).searchParams);
          return prefetch(
            flagSearchQuery(searchQuery(project, filters)),
            projectQuery(project),
            featureTypesQuery(),
            tagsQuery(),
          );
        },
      },
      {
        path: '/projects/:projectId/features/:featureName',
        lazy: page(() => import('./features/flag-page.tsx')),
        loader: ({ params }) =>
          prefetch(
            flagQuery(params.projectId ?? '', params.featureName ?? ''),
            projectQuery(params.projectId ?? ''),
            strategyDefinitionsQuery(),
            contextFieldsQuery(),
            segmentsQuery(),
          ),
      },
      {
        path: '/projects/:projectId/features/:featureName/history',
        lazy: page(() => import('./history/flag-history-page.tsx')),
      },
      {
        path: '/projects/:projectId/features/:featureName/experiments',
        lazy: page(() => import('./experiments/experiments-page.tsx')),
      },
      {
        path: '/projects/:projectId/features/:featureName/metrics',
        lazy: page(() => import('./insights/flag-metrics-page.tsx')),
      },
      {
        path: '/projects/:projectId/change-requests',
        lazy: () =>
          import('./change-requests/change-request-page.tsx').then((module) => ({
            Component: module.ChangeRequestsPage,
          })),
      },
      {
        path: '/projects/:projectId/change-requests/:id',
        lazy: () =>
          import('./change-requests/change-request-page.tsx').then((module) => ({
            Component: module.ChangeRequestPage,
          })),
      },
      { path: '/projects/:projectId/health', lazy: page(() => import('./insights/project-status-page.tsx')) },
      {
        path: '/projects/:projectId/settings/access',
        lazy: page(() => import('./project-access/project-access-page.tsx')),
      },
      { path: '/projects/:projectId/settings/actions', lazy: page(() => import('./signals/action-sets-page.tsx')) },
      {
        path: '/projects/:projectId/settings/code',
        lazy: page(() => import('./projects/managed-as-code-page.tsx')),
      },
      { path: '/history', lazy: page(() => import('./history/history-page.tsx')) },
      { path: '/playground', lazy: page(() => import('./playground/playground-page.tsx')) },
      { path: '/insights', lazy: page(() => import('./insights/dashboard-page.tsx')) },
      { path: '/impact-metrics', lazy: page(() => import('./impact-metrics/impact-metrics-page.tsx')) },
      { path: '/cleanup', lazy: page(() => import('./code-references/cleanup-page.tsx')) },
      {
        path: '/applications',
        lazy: () =>
          import('./insights/applications-page.tsx').then((module) => ({ Component: module.ApplicationsPage })),
      },
      {
        path: '/applications/:appName',
        lazy: () =>
          import('./insights/applications-page.tsx').then((module) => ({ Component: module.ApplicationPage })),
      },
      { path: '/release-templates', element: <ReleaseTemplateAddress to="list" /> },
      { path: '/release-templates/create-template', element: <ReleaseTemplateAddress to="new" /> },
      { path: '/release-templates/edit/:templateId', element: <ReleaseTemplateAddress to="edit" /> },
      { path: '/profile', lazy: page(() => import('./profile/profile-page.tsx')) },
      { path: '/oauth/consent', lazy: page(() => import('./mcp/consent-page.tsx')) },
      {
        path: '/admin',
        lazy: page(() => import('./layout/admin-layout.tsx')),
        children: [
          { index: true, element: <Navigate to="/admin/users" replace /> },
          { path: 'users', lazy: page(() => import('./users/users-page.tsx')) },
          { path: 'groups', lazy: page(() => import('./groups/groups-page.tsx')) },
          { path: 'roles', lazy: page(() => import('./roles/roles-page.tsx')) },
          { path: 'service-accounts', lazy: page(() => import('./personal-access-tokens/service-accounts-page.tsx')) },
          { path: 'agents', lazy: page(() => import('./agent-tokens/agents-page.tsx')) },
          { path: 'invite-links', lazy: page(() => import('./invites/invite-links-page.tsx')) },
          { path: 'api-tokens', lazy: page(() => import('./api-tokens/api-tokens-page.tsx')) },
          { path: 'environments', lazy: page(() => import('./environments/environments-page.tsx')) },
          { path: 'context-fields', lazy: page(() => import('./context-fields/context-fields-page.tsx')) },
          { path: 'segments', lazy: page(() => import('./segments/segments-page.tsx')) },
          { path: 'strategies', lazy: page(() => import('./strategy-definitions/strategy-definitions-page.tsx')) },
          { path: 'release-templates', lazy: page(() => import('./release-templates/release-templates-page.tsx')) },
          {
            path: 'release-templates/new',
            lazy: page(() => import('./release-templates/release-template-editor-page.tsx')),
          },
          {
            path: 'release-templates/:templateId',
            lazy: page(() => import('./release-templates/release-template-editor-page.tsx')),
          },
          { path: 'tag-types', lazy: page(() => import('./tags/tag-types-page.tsx')) },
          { path: 'integrations', lazy: page(() => import('./addons/integrations-page.tsx')) },
          // The page's address before it offered more than webhooks.
          { path: 'webhooks', element: <Navigate to="/admin/integrations" replace /> },
          { path: 'signals', lazy: page(() => import('./signals/signal-endpoints-page.tsx')) },
          { path: 'auth', lazy: page(() => import('./sign-in/sign-in-settings-page.tsx')) },
          // Unleash's address for its login history.
          { path: 'logins', lazy: page(() => import('./access-history/access-history-page.tsx')) },
          { path: 'maintenance', lazy: page(() => import('./maintenance/maintenance-page.tsx')) },
          { path: 'instance', lazy: page(() => import('./insights/instance-stats-page.tsx')) },
        ],
      },
      { path: '*', lazy: page(() => import('./layout/not-found-page.tsx')) },
    ],
  },
]);
