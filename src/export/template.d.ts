// The build (esbuild's text loader) and the tests (a vitest transform) import .mustache files as text.
declare module '*.mustache' {
  const text: string;
  export default text;
}
