// What the simulated upstreams list as trending. FxTwitter's /2/trends passes X's logged-out Explore "trending"
// timeline as FxEmbed does (APITrendsResponse: name, rank as a string, context from trend_metadata.domain_context,
// grouped_topics), without counts. X's own trending timeline (GenericTimelineById) lists the same topics with the
// counts it shows (`posts`), after a module of AI-written stories.
export const SIM_TRENDS: {
  name: string;
  rank: string | null;
  context: string | null;
  grouped?: string[];
  posts?: number;
}[] = [
  { name: '#caching', rank: '1', context: 'Technology · Trending', grouped: ['CDN', 'Redis'], posts: 37_600 },
  { name: 'threadmark', rank: '2', context: 'Trending in Technology', posts: 1_699 },
  { name: '$TSLA', rank: '3', context: 'Business & finance · Trending', posts: 4_000_000 },
  { name: '#flashsale', rank: '4', context: null },
  { name: 'Request coalescing', rank: '5', context: 'Technology · Trending', posts: 12_000 },
  { name: '#ラーメン', rank: null, context: 'Food · Trending' },
];

/** The AI-written stories X's trending timeline leads with: a headline, its age, its category and its count. */
export const SIM_X_STORIES: { id: string; name: string; age: string; category: string; posts: number }[] = [
  {
    id: '2066094735882936480',
    name: 'Cache Stampede Takes Down Popular Status Page for an Hour',
    age: '2 hours ago',
    category: 'Technology',
    posts: 70_000,
  },
  {
    id: '2066204564244873392',
    name: 'Open Source Maintainers Rally Behind New Funding Model',
    age: '1 day ago',
    category: 'Other',
    posts: 755_000,
  },
];
