/**
 * antd's component styles as static CSS (antd/dist/antd.css less what the console never uses,
 * vite.antd.ts), for the console's zero-runtime theme (components/theme.ts CONSOLE_STATIC_THEME): antd
 * then generates no component style at run time, which took much of the console's first render on slow
 * devices. The rules go into one `<style>` at the start of `<head>`, where antd's run-time styles went:
 * the app's own rules (styles.css) still come after them and win at equal specificity. The theme's
 * colours stay CSS variables that antd sets at run time from the ConfigProvider's theme.
 */
import antdCss from 'virtual:antd-static-css';

const style = document.createElement('style');
style.dataset.antd = 'static';
style.textContent = antdCss;
document.head.prepend(style);
