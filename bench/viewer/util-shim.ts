// Stand-in for Node's `util` in the bench build: visage bundles `qs` (via object-inspect),
// which reads `util.inspect` and its `custom` symbol. Vite would leave an empty module.
function inspect(value: unknown): string {
  return String(value);
}
inspect.custom = Symbol.for('nodejs.util.inspect.custom');
export { inspect };
export default { inspect };
