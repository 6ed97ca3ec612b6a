// What the standalone binary's start-up snapshot holds already loaded (scripts/build-binary.mjs):
// the modules that cost most at start and read nothing of the environment, the terminal or the
// clock when they load, and hold no handle (no chalk, no config, no sockets): zod and the API's
// schemas, the endpoints, pagination, and commander. Loaded while the snapshot is built, they are
// not parsed or run again by any command. (undici cannot be in it: node's snapshot builder aborts
// on the handles that its load leaves, CheckGlobalAndEternalHandles, node 26.10.)
export async function loadForSnapshot(): Promise<void> {
  await Promise.all([import('../api/endpoints.js'), import('../api/paginate.js'), import('commander')]);
}
