// What the simulated FxTwitter lists at /2/trends: X's logged-out Explore "trending" timeline as FxEmbed passes it
// on (APITrendsResponse: name, rank as a string, context from trend_metadata.domain_context, grouped_topics).
export const SIM_TRENDS: { name: string; rank: string | null; context: string | null; grouped?: string[] }[] = [
  { name: '#caching', rank: '1', context: 'Technology · Trending', grouped: ['CDN', 'Redis'] },
  { name: 'threadmark', rank: '2', context: 'Trending in Technology' },
  { name: '$TSLA', rank: '3', context: 'Business & finance · Trending' },
  { name: '#flashsale', rank: '4', context: null },
  { name: 'Request coalescing', rank: '5', context: 'Technology · Trending' },
  { name: '#ラーメン', rank: null, context: 'Food · Trending' },
];
