/** The console's static antd CSS as text (vite.antd.ts). */
declare module 'virtual:antd-static-css' {
  const css: string;
  export default css;
}
