// X's web app (x.com and abs.twimg.com in one): the home page, the main script of the current deploy and
// the on-demand script, served under /x-web for discovery and request signing.
import { homePage, mainScript, mainScriptName, onDemandScript, SIM_ONDEMAND_HASH } from '../x-web-bundle.ts';
import { html, type RouteModule, type SimResponse } from './types.ts';

const js = (body: string): SimResponse => ({
  status: 200,
  headers: { 'content-type': 'application/javascript; charset=utf-8' },
  body,
});

export const xWebRoutes: RouteModule = {
  target: 'x-web',
  prefix: '/x-web',
  handle(req) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return null;
    if (req.path === '/' || req.path === '/home') return html(200, homePage());
    if (req.path === `/client-web/${mainScriptName()}`) return js(mainScript());
    if (req.path === `/client-web/ondemand.s.${SIM_ONDEMAND_HASH}a.js`) return js(onDemandScript());
    return null;
  },
};
