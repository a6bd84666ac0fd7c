// Turns the `url` parameter into a status reference, with the contract's four distinct failure codes. The link
// itself is read by the one pasted-link reader (domain/pasted-link.ts), on the contract's two hosts.
import { InputRefusal } from '../refusal.ts';
import { canBeStatusId, impossibleIdDetail } from '../../domain/ids.ts';
import { parsePostLink } from '../../domain/pasted-link.ts';

export interface StatusRef {
  /** Absent for X's handle-less permalinks (/i/status/{id}, /i/web/status/{id}). */
  handle?: string;
  id: string;
}

export function parseStatusUrl(raw: string): StatusRef {
  const ref = parsePostLink(raw, 'platform');
  if ('code' in ref) throw new InputRefusal(ref.code, ref.detail);
  checkIdRange(ref.id);
  return ref;
}

/** A numeric id the platform cannot have issued (see domain/ids.ts) is 404 with no upstream call. */
export function checkIdRange(id: string): void {
  if (!canBeStatusId(id)) throw new InputRefusal('not_found', impossibleIdDetail('post', id));
}
