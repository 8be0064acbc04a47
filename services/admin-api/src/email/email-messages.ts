import { escapeHtml } from '@bunting/platform';
import type { QueuedEmail } from './email-store.ts';

// Plain words, the link on a line of its own, and an HTML part that says the same (mail programs show either).

function message(
  kind: string,
  to: { email: string; userId: number },
  subject: string,
  lines: string[],
  link: { label: string; url: string },
): QueuedEmail {
  const text = [...lines, '', `${link.label}: ${link.url}`, ''].join('\n');
  const html =
    `<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}` +
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p><p style="color: #666; font-size: small">${escapeHtml(link.url)}</p></body></html>`;
  return { kind, recipient: to.email, subject, text, html, userId: to.userId };
}

/** A new account's welcome: the link sets the first password. */
export function welcomeMessage(
  to: { email: string; userId: number; name: string | null },
  link: string,
  installation: string,
): QueuedEmail {
  return message(
    'welcome',
    to,
    'Welcome to Bunting',
    [
      `Hello${to.name ? ` ${to.name}` : ''},`,
      `An account on Bunting (${installation}) has been made for you. Choose a password with the link below; it works once, for 24 hours.`,
    ],
    { label: 'Choose your password', url: link },
  );
}

/** A change request waits for the recipient's review. */
export function reviewRequestMessage(
  to: { email: string; userId: number; name: string | null },
  request: { id: number; title: string | null; createdByName: string; project: string; environment: string },
  link: string,
  installation: string,
): QueuedEmail {
  const what = request.title ? `"${request.title}"` : `#${request.id}`;
  return message(
    'change-request-review',
    to,
    `Change request ${what} waits for your review`,
    [
      `Hello${to.name ? ` ${to.name}` : ''},`,
      `${request.createdByName} asks for a review of change request ${what} to ${request.environment} in project ${request.project} on Bunting (${installation}).`,
      'You get this mail because you may approve it. Your profile in Bunting turns such mail off.',
    ],
    { label: 'Review the change request', url: link },
  );
}

/** A reset asked for on the sign-in page. */
export function passwordResetMessage(
  to: { email: string; userId: number; name: string | null },
  link: string,
  installation: string,
): QueuedEmail {
  return message(
    'password-reset',
    to,
    'Reset your Bunting password',
    [
      `Hello${to.name ? ` ${to.name}` : ''},`,
      `Someone (we hope you) asked to reset your password on Bunting (${installation}). The link below sets a new one; it works once, for 24 hours. If it was not you, ignore this mail: your password stays as it is.`,
    ],
    { label: 'Set a new password', url: link },
  );
}

/** A project owner's reminder of the project's flags that are stale or look safe to remove. */
export function cleanupMessage(
  to: { email: string; name: string },
  project: string,
  flags: readonly { name: string; reason: string }[],
  link: string,
  installation: string,
): QueuedEmail {
  const mail = message(
    'cleanup-reminder',
    { email: to.email, userId: 0 },
    `${flags.length} flag(s) in ${project} to clean up`,
    [
      `Hello ${to.name},`,
      `These flags of project ${project} on Bunting (${installation}) are stale or look safe to remove:`,
      ...flags.map((flag) => `- ${flag.name}: ${flag.reason}`),
      'Remove what is left of them in code, then archive them. You get this as an owner of the project, at most once a period per flag.',
    ],
    { label: 'See the flags to clean up', url: link },
  );
  return { ...mail, userId: null };
}
