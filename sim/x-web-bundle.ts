// The simulated X web app a client reads: a home page naming its main script (queryId/operationName pairs of
// the current deploy), the `twitter-site-verification` key, four `loading-x-anim-N` animations and a webpack
// runtime mapping the on-demand chunk to its hash; the on-demand script names key byte positions as
// `(x[NN], 16)`. All of it is seeded, so runs are identical; the main script's name changes with each deploy.
import { xDeploy } from './x-deploy.ts';
import { seededRandom, slug } from './prng.ts';
import { decodeTransactionId, TRANSACTION_EPOCH_S } from '../src/providers/x/transaction-id.ts';

const rand = seededRandom(0x7e5);
const byte = () => Math.floor(rand() * 256);

/** 48 bytes, as X's key decodes to. */
export const SIM_VERIFICATION_KEY = Buffer.from(Array.from({ length: 48 }, byte));
/** Row index first, then the key bytes whose product sets the animation time. */
export const SIM_KEY_INDICES = [2, 12, 29, 41];
export const SIM_ONDEMAND_CHUNK = '20113';
export const SIM_ONDEMAND_HASH = slug('ondemand', 8).toLowerCase();

/** One animation: 16 cubic segments of 11 numbers each (3 colour from, 3 to, rotation, 4 curve). */
function frame(): string {
  const rows = Array.from({ length: 16 }, () => Array.from({ length: 11 }, byte).join(' '));
  return `M 10,30 C${rows.join('C')}`;
}
const FRAMES = Array.from({ length: 4 }, frame);

export function mainScriptName(): string {
  return `main.${slug(`main:${xDeploy.generation}`, 8).toLowerCase()}.js`;
}

export function homePage(): string {
  const svgs = FRAMES.map(
    (d, i) =>
      `<svg id="loading-x-anim-${i}" width="0" height="0" viewBox="0 0 1 1"><g><path d="M 0,0 L 1,1" fill="none"/><path d="${d}" fill="#1d9bf0"/></g></svg>`,
  ).join('\n');
  return `<!DOCTYPE html>
<html dir="ltr" lang="en"><head>
<meta charset="utf-8"/>
<meta name="twitter-site-verification" content="${SIM_VERIFICATION_KEY.toString('base64')}"/>
<title>X</title>
<script>window.__RUNTIME__=function(e){return e+"."+{${SIM_ONDEMAND_CHUNK}:"ondemand.s",20114:"bundle.Grok"}[e]+"."+{${SIM_ONDEMAND_CHUNK}:"${SIM_ONDEMAND_HASH}",20114:"0f1e2d3c"}[e]+"a.js"}</script>
<script type="text/javascript" charset="utf-8" nonce="sim" crossorigin="anonymous" src="client-web/${mainScriptName()}"></script>
</head><body>
${svgs}
<div id="react-root"></div>
</body></html>`;
}

export function mainScript(): string {
  const defs = xDeploy
    .entries()
    .map(
      ([name, id]) =>
        `e.exports={queryId:"${id}",operationName:"${name}",operationType:"query",metadata:{featureSwitches:[],fieldToggles:[]}}`,
    );
  // Operations the service never calls, as the real bundle lists hundreds.
  defs.push(
    'e.exports={queryId:"Xx9rL2mPqV3sTw7yZb1cDe",operationName:"CreateTweet",operationType:"mutation",metadata:{}}',
  );
  return `(self.webpackChunk_twitter_responsive_web=self.webpackChunk_twitter_responsive_web||[]).push([[1],{${defs.map((d, i) => `${i}:e=>{${d}}`).join(',')}}]);`;
}

export function onDemandScript(): string {
  const [row, ...rest] = SIM_KEY_INDICES;
  return `"use strict";(self.webpackChunk=self.webpackChunk||[]).push([[${SIM_ONDEMAND_CHUNK}],{1:(e,t,n)=>{const r=parseInt(o[${row}], 16),i=${rest.map((k) => `parseInt(o[${k}], 16)`).join('*')};return r+i}}]);`;
}

/**
 * X's check of `x-client-transaction-id`, as far as a simulator can judge: present, base64 without padding,
 * carrying this page's verification key, a time near now and the trailing byte 3.
 */
export function transactionIdProblem(value: string | undefined, nowMs: number): string | undefined {
  if (!value) return 'missing';
  const d = decodeTransactionId(value);
  if (!d) return 'not base64';
  if (!Buffer.from(d.keyBytes).equals(SIM_VERIFICATION_KEY)) return 'wrong verification key';
  if (d.trailer !== 3) return 'bad trailer';
  if (Math.abs(nowMs / 1000 - TRANSACTION_EPOCH_S - d.time) > 600) return 'time too far off';
  return undefined;
}
