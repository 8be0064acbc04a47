import { Navigate, useParams } from 'react-router';

/**
 * Unleash's UI keeps release templates at /release-templates (create-template, edit/:id); links people saved there
 * land on the console's pages under /admin.
 */
export function ReleaseTemplateAddress({ to }: { to: 'list' | 'new' | 'edit' }) {
  const { templateId } = useParams();
  const target =
    to === 'new'
      ? '/admin/release-templates/new'
      : to === 'edit' && templateId
        ? `/admin/release-templates/${encodeURIComponent(templateId)}`
        : '/admin/release-templates';
  return <Navigate to={target} replace />;
}
