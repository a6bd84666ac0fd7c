// JSON Schema of the posts route's JSON envelope (render/json.ts), for the OpenAPI document. Only the members
// a client relies on are spelled out; posts themselves stay open objects (unknown members may be added in v1).
const POST = { type: 'object', description: 'A post: id, url, author, createdAt, text, segments, media, quote, poll, article, card, metrics, replyTo…', additionalProperties: true };

export const POST_ENVELOPE_SCHEMA: Record<string, unknown> = {
  type: 'object',
  description: 'JSON envelope of a post read: the rendered Markdown plus the structured posts. Unknown members may be added within v1.',
  required: ['markdown', 'post', 'thread', 'conversation', 'source', 'warnings'],
  properties: {
    markdown: { type: 'string', description: 'The compact (or, with full=true, expanded) Markdown of the same read.' },
    post: { ...POST, description: 'The requested post.' },
    thread: { type: 'array', items: POST, description: "The author's own chain containing the requested post, in order." },
    conversation: {
      type: 'object',
      required: ['parents', 'replies'],
      properties: {
        parents: {
          type: 'array',
          items: POST,
          description:
            "With context=full: the posts above the author's own chain, from the conversation's first post down to the direct parent, " +
            'across authors. At most 20: the first post and the 19 nearest. Empty with context=thread or thread=off.',
        },
        parentsOmitted: {
          type: 'integer',
          minimum: 1,
          description: 'How many ancestors were left out between parents[0] and parents[1] (conversations deeper than 20). Absent when none were.',
        },
        earlier: {
          type: 'string',
          enum: ['unavailable', 'cut_short'],
          description:
            'The conversation continues above the first post shown but could not be read: an earlier post is deleted, protected or ' +
            'unavailable (`unavailable`), or the request ran out of upstream time (`cut_short`). Absent when the top was reached.',
        },
        replies: {
          type: 'array',
          items: { type: 'object', properties: { post: POST, children: { type: 'array' } } },
          description: 'Replies as trees (`children` nest), ordered by replies=top (likes) or recent (newest first).',
        },
      },
    },
    source: { type: 'string', description: 'The provider that answered (also in X-Source).' },
    warnings: { type: 'array', items: { type: 'string' }, description: 'What was left out or could not be read (also in X-Warnings).' },
  },
  additionalProperties: true,
};
