// What can be wrong with an archive, as a typed failure the command turns into its problem line and exit code.

export type ArchiveProblem =
  /** Neither a zip file nor a folder, or no such path. */
  | 'archive_not_found'
  /** The file is not a zip (or not a readable one). */
  | 'not_a_zip'
  /** The zip ends early: its central directory or an entry's data is cut off. */
  | 'truncated_archive'
  /** No data/tweets.js (nor tweet.js, nor tweets-part1.js…). */
  | 'no_tweets'
  /** A data file that is not `window.YTD.<name>.part<N> = [ … ]`, or whose elements are not JSON. */
  | 'invalid_archive_file'
  /** data/account.js is missing or names no account. */
  | 'no_account';

export class ArchiveError extends Error {
  constructor(
    readonly problem: ArchiveProblem,
    detail: string,
  ) {
    super(detail);
    this.name = 'ArchiveError';
  }
}
