// The query of the lists of posts (an X List's posts, a post's quotes, a profile's media and Articles tabs): the
// list parameters, the post filters of the feeds and `translate`. Lists of accounts take the plain list query
// (params/list.ts).
import { z } from 'zod';
import { listFilterShape } from '../params/feed-filters.ts';
import { listShape } from '../params/list.ts';
import { translateShape } from '../params/lang.ts';

export const postListQuery = z.object({ ...listShape, ...listFilterShape, ...translateShape });
