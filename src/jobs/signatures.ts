// How pushes are signed: webhooks per Standard Webhooks (webhook-id, webhook-timestamp in seconds, webhook-signature
// `v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the watch's whsec_ secret), WebSub per the W3C
// recommendation (X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body> under the subscriber's hub.secret).
import { engines } from '../engines.ts';
import { createHmac } from 'node:crypto';

// Loaded with the first push: an instance that delivers nothing never needs it.
const standardWebhooks = engines.standardWebhooks;

export function signWebhook(secret: string, id: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new (standardWebhooks().Webhook)(secret).sign(id, at, body),
  };
}

export function signWebSub(secret: string, body: string): Record<string, string> {
  return { 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}` };
}
