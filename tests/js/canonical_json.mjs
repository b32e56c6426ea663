/** JSON with its object keys sorted, at every depth: two answers that hold the same values compare
 *  equal whatever order their writers put the keys in (the core writes configs with sorted keys, the
 *  estimate writes model keys in another order than inspect). */
export const canonical = (v) => JSON.stringify(v, (k, x) => (x && typeof x === 'object' && !Array.isArray(x)
  ? Object.fromEntries(Object.keys(x).sort().map((key) => [key, x[key]])) : x));
