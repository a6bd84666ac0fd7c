// X's trending Explore timeline on the simulated GraphQL API: GenericTimelineById with the `trending` timeline id,
// in the 2026 shape of twscrape's captures (tests/mocked-data/raw_trends.json @92c2eb9): ClearCache and
// TerminateTimeline, then a `frame-` TimelineFrame item, a `stories-<id>` Vertical module of AI trends
// (`is_ai_trend`, `social_context` "<age> · <category> · <count> posts", `twitter://trending/<id>`), the plain
// `trend-<name>` TimelineTrend items (domain_context, meta_description with the count as X shows it, as the 2025
// capture @5488037 has it) and Top/Bottom cursors. Another timeline id answers empty data.
import { SIM_TRENDS, SIM_X_STORIES } from '../trends.ts';
import type { XEntry, XItemContent, XTimelineTrend, XTrendUrl } from '../../src/providers/x/wire.ts';
import { TRENDING_TIMELINE_ID } from '../../src/providers/x/trends.ts';
import type { SimResponse } from './types.ts';
import { cursorEntry } from './x-wire.ts';
import { addEntries, ok, sortIndex, text, type Vars } from './x-timeline.ts';

/** A count the way X shows it: "1,699 posts" below ten thousand, then "37.6K posts", "4M posts". */
export function shownCount(n: number): string {
  const short = (v: number, unit: string) => `${Number(v.toFixed(1))}${unit}`;
  const s = n < 10_000 ? n.toLocaleString('en-US') : n < 1_000_000 ? short(n / 1e3, 'K') : short(n / 1e6, 'M');
  return `${s} posts`;
}

function searchUrl(name: string): XTrendUrl {
  const query = new URLSearchParams({ query: name.includes(' ') ? `"${name}"` : name }).toString();
  return {
    url: `twitter://search/?${query}&src=trend_click&pc=true&vertical=trends`,
    urlType: 'DeepLink',
    urtEndpointOptions: { requestParams: [{ key: 'cd', value: Buffer.from(name).toString('base64') }] },
  };
}

function item(entryId: string, at: number, itemContent: XItemContent, component: string): XEntry {
  return {
    entryId,
    sortIndex: sortIndex(at),
    content: {
      entryType: 'TimelineTimelineItem',
      __typename: 'TimelineTimelineItem',
      itemContent,
      clientEventInfo: { component },
    },
  };
}

function trending(): SimResponse {
  const storiesId = `stories-${SIM_X_STORIES[0]!.id}`;
  const stories: XEntry = {
    entryId: storiesId,
    sortIndex: sortIndex(1),
    content: {
      entryType: 'TimelineTimelineModule',
      __typename: 'TimelineTimelineModule',
      displayType: 'Vertical',
      clientEventInfo: { component: 'stories' },
      items: SIM_X_STORIES.map((s) => {
        const url = { url: `twitter://trending/${s.id}`, urlType: 'DeepLink' };
        const trend: XTimelineTrend = {
          itemType: 'TimelineTrend',
          __typename: 'TimelineTrend',
          is_ai_trend: true,
          name: s.name,
          social_context: {
            type: 'TimelineGeneralContext',
            contextType: 'Facepile',
            text: `${s.age} · ${s.category} · ${shownCount(s.posts)}`,
            contextImageUrls: [`https://pbs.twimg.com/profile_images/${s.id}/story_normal.jpg`],
          },
          trend_metadata: { url },
          trend_url: url,
        };
        return { entryId: `${storiesId}-trend-${s.id}`, item: { itemContent: trend, clientEventInfo: {} } };
      }),
    },
  };
  const topics = SIM_TRENDS.map((t, i) => {
    const url = searchUrl(t.name);
    const trend: XTimelineTrend = {
      itemType: 'TimelineTrend',
      __typename: 'TimelineTrend',
      name: t.name,
      trend_url: url,
      trend_metadata: {
        ...(t.context ? { domain_context: t.context } : {}),
        ...(t.posts !== undefined ? { meta_description: shownCount(t.posts) } : {}),
        url,
      },
      ...(t.grouped ? { grouped_trends: t.grouped.map((name) => ({ name, url: searchUrl(name) })) } : {}),
    };
    return item(`trend-${t.name}`, 2 + i, trend, 'unified_events');
  });
  // An event widget whose payload is an opaque blob to every client but X's web app.
  const frame = item(
    'frame-JetfuelTrendingEntryPoint',
    0,
    {
      itemType: 'TimelineFrame',
      __typename: 'TimelineFrame',
      height: 180,
      payload: 'rBwAAADxATOZAkDpCE3fCQAAAA==',
    } as XItemContent,
    'TrendingJetfuel',
  );
  const entries = [
    frame,
    stories,
    ...topics,
    cursorEntry('Top', 'DAAJAAA', sortIndex(-1)),
    cursorEntry('Bottom', 'DAADCgABHK4gd62___sPAAIKAAAAAAAA', sortIndex(1_000_000)),
  ];
  return ok({
    data: {
      timeline: {
        timeline: {
          instructions: [
            { type: 'TimelineClearCache' },
            { type: 'TimelineTerminateTimeline', direction: 'Bottom' },
            addEntries(entries),
          ],
        },
      },
    },
  });
}

function genericTimelineById(_c: unknown, v: Vars): SimResponse {
  return text(v.timelineId) === TRENDING_TIMELINE_ID ? trending() : ok({ data: {} });
}

export const TREND_OPERATIONS = { GenericTimelineById: genericTimelineById };
