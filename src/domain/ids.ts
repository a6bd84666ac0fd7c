// Which status, list and account ids the platform can have issued. Snowflakes are signed 64-bit integers (19 digits
// today), written without leading zeros and never 0; older account ids are smaller integers written the same way.
// A longer id, one at 2^63 and above, 0 or one with a leading zero names nothing: answering it "not found"
// without asking an upstream keeps bogus ids from reaching (and counting against) the providers and their sessions.

const MAX_SNOWFLAKE = (1n << 63n) - 1n;

export function canBeSnowflake(id: string): boolean {
  return /^[1-9][0-9]{0,18}$/.test(id) && BigInt(id) <= MAX_SNOWFLAKE;
}

export const canBeStatusId = canBeSnowflake;
/** X Lists draw their ids from the same snowflake sequence as posts. */
export const canBeListId = canBeSnowflake;
/** Account ids (rest_id): snowflakes since 2013, small integers before. */
export const canBeAccountId = canBeSnowflake;

/** The detail of the 404 an impossible id gets (the id cut short: it may be any length). */
export function impossibleIdDetail(what: 'post' | 'list' | 'account', id: string): string {
  const shown = id.length > 30 ? `${id.slice(0, 30)}…` : id;
  return `No ${what} has the id ${shown}: ids run from 1 to 2^63 − 1 and are written without leading zeros.`;
}
