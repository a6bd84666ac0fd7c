// A request input the contract refuses, with the catalog code its schema names for that case (each schema's error
// message is the code to answer with; see params/common.ts `code`) and the words to say, when they are more than
// the catalog's title. The edge (http/failures/problem-of.ts) writes the problem document.
import type { CatalogCode } from '../problems/catalog.ts';

export class InputRefusal extends Error {
  readonly code: CatalogCode;
  readonly detail: string | undefined;

  constructor(code: CatalogCode, detail?: string) {
    super(detail ?? code);
    this.name = 'InputRefusal';
    this.code = code;
    this.detail = detail;
  }
}
