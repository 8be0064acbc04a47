import {
  Anchor,
  Modal,
  Notification,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  parseThemeColor,
  type CSSVariablesResolver,
  type VariantColorsResolver,
} from '@mantine/core';

/**
 * Mantine's light, subtle and outline variants write text in shade 6-8 of their colour, below 4.5:1 for green,
 * orange or yellow; here the text takes the darkest shade, darkened further, so every badge and button reads.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'light' && input.variant !== 'subtle' && input.variant !== 'outline') return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor) return colors;
  const text = darken(input.theme.colors[parsed.color]![9], 0.25);
  return { ...colors, color: text, ...(input.variant === 'outline' ? { border: `1px solid ${text}` } : {}) };
};

/** One palette and one font scale for the whole console; contrast kept at WCAG AA for text on its backgrounds. */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontWeight: '650' },
  variantColorResolver,
  // Who asks the system for less motion gets dialogs, menus and notifications without their fade and slide.
  respectReducedMotion: true,
  components: {
    // The close button of every dialog is named for screen readers.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // Its message in Mantine's dimmed grey reads at 3.3:1: a refusal's explanation must be readable (gray.7).
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } },
      styles: { description: { color: 'var(--mantine-color-gray-7)' } },
    }),
    // A link inside text must not rely on colour alone to be seen.
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
  },
});

/** Mantine's dimmed grey (gray.6) is 3.3:1 on white; gray.7 reads at 7:1. */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: { '--mantine-color-dimmed': resolved.colors.gray[7] },
  dark: {},
});

/** Text colours for what a change added and removed, both above 4.5:1 on white. */
export const ADDED_COLOR = '#1b6e31';
export const REMOVED_COLOR = '#b02525';
