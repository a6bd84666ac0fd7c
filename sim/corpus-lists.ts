// The X Lists of the corpus: a public list big enough to page through (posts and members), a small one, and a
// private one that only its owner could read.
import type { SimCorpus, SimList } from './corpus-types.ts';

export const LIST_IDS = {
  /** alice_dev's "Caching people": 45 members, their posts and reposts make several pages. */
  caching: '1900000000000090001',
  /** bob's two-member list. */
  pair: '1900000000000090002',
  /** locked_lena's private list. */
  private: '1900000000000090003',
  /** owen_en's list of accounts writing in Japanese, French and English: what translate= and lang= tell apart. */
  languages: '1900000000000090004',
  /** A well-formed id no list has. */
  unknown: '1900000000000099999',
} as const;

export const CACHING_LIST_MEMBERS = 45;

/** Seeds the lists; called once the accounts and timelines exist. */
export function seedLists(c: SimCorpus, at: number): void {
  const id = (handle: string) => c.usersByHandle.get(handle.toLowerCase())!.id;
  const readers = Array.from({ length: 40 }, (_, i) => id(`reader_${String(10 + i).padStart(4, '0')}`));
  const lists: SimList[] = [
    {
      id: LIST_IDS.caching,
      name: 'Caching people',
      description: 'Everyone who has opinions about cache invalidation. #caching',
      ownerId: id('alice_dev'),
      memberIds: [id('bigaccount'), id('dave'), id('carol'), id('bob'), id('alice_dev'), ...readers],
      private: false,
      subscribers: 12,
      createdAt: at,
    },
    {
      id: LIST_IDS.pair,
      name: 'Bob & Carol',
      description: '',
      ownerId: id('bob'),
      memberIds: [id('carol'), id('bob')],
      private: false,
      subscribers: 0,
      createdAt: at,
    },
    {
      id: LIST_IDS.private,
      name: 'Close friends',
      description: 'Not for you.',
      ownerId: id('locked_lena'),
      memberIds: [id('alice_dev')],
      private: true,
      subscribers: 0,
      createdAt: at,
    },
    {
      id: LIST_IDS.languages,
      name: 'Many languages',
      description: 'Caching, in Japanese, French and English.',
      ownerId: id('owen_en'),
      memberIds: [id('kenji_jp'), id('marie_fr'), id('owen_en')],
      private: false,
      subscribers: 0,
      createdAt: at,
    },
  ];
  for (const l of lists) c.lists.set(l.id, l);
}
