/**
 * The `token` query parameter X's embed widget sends with /tweet-result: the id scaled into a float,
 * printed in base 36, with dots and runs of zeros removed. Float precision loss is part of the
 * algorithm (the widget computes it the same way), so ids are not handled as BigInt here.
 */
export function syndicationToken(id: string): string {
  return ((Number(id) / 1e15) * Math.PI).toString(36).replace(/(0+|\.)/g, '');
}
