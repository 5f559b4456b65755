/**
 * The console's antd theme (ConfigProvider in app/Console.tsx and around the toasts, MessageHolder.tsx).
 * Text colours meet WCAG AA contrast (4.5:1) on white and on table headers (#fafafa): antd's
 * defaults draw hints, breadcrumbs and descriptions in #8c8c8c (3.4:1), placeholders in #bfbfbf
 * (1.8:1) and links in #1677ff (4.1:1), which Lighthouse's accessibility audit flagged.
 */
export const CONSOLE_THEME = {
  token: {
    colorPrimary: '#1668dc',
    // Danger buttons, error texts and tags: antd's #ff4d4f is 3.3:1 on white; red-7 is 5.6:1.
    colorError: '#cf1322',
    // ...with antd's own light tints kept (the derived ones of red-7 are darker: a link in an error alert fell to 4.4:1).
    colorErrorBg: '#fff2f0',
    colorErrorBorder: '#ffccc7',
    colorLink: '#1668dc',
    colorTextTertiary: 'rgba(0, 0, 0, 0.57)',
    colorTextDescription: 'rgba(0, 0, 0, 0.57)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.57)',
  },
} as const;

/**
 * The console's theme with antd's zero-runtime mode: components take their rules from the static CSS
 * app/antdStyles.ts injects instead of generating them at run time. Only where that CSS is loaded (the
 * console, app/Console.tsx); the sign-in page's toasts keep CONSOLE_THEME.
 */
export const CONSOLE_STATIC_THEME = { ...CONSOLE_THEME, zeroRuntime: true } as const;
