// Which status and list ids the platform can have issued. Snowflakes are signed 64-bit integers (19 digits
// today), so a longer id, or one at 2^63 and above, names nothing: answering it "not found" without asking an
// upstream keeps bogus ids from reaching (and counting against) the providers.

const MAX_SNOWFLAKE = (1n << 63n) - 1n;

export function canBeSnowflake(id: string): boolean {
  return /^[0-9]{1,19}$/.test(id) && BigInt(id) <= MAX_SNOWFLAKE;
}

export const canBeStatusId = canBeSnowflake;
/** X Lists draw their ids from the same snowflake sequence as posts. */
export const canBeListId = canBeSnowflake;
