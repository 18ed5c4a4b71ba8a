// A module resolution hook: `fs` imported by the conformance suite resolves to fs-glob-shim.mjs.
const shim = new URL('./fs-glob-shim.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  const isSuite = context.parentURL?.includes('/@modelcontextprotocol/conformance/') ?? false;
  if (isSuite && (specifier === 'fs' || specifier === 'node:fs')) {
    return { url: shim, shortCircuit: true };
  }
  return next(specifier, context);
}
