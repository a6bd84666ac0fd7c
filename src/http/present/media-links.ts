// With the media proxy on, the X media URLs of a feed, an HTML page or a link preview become the service's signed
// /media/ addresses, so readers fetch them here. Works on the serialized text: HTML and XML escape `&` in URLs
// (once, or twice inside escaped HTML), which is undone before signing; the signed address needs no escaping.
import type { Services } from '../../contract/services.ts';

// Up to a quote, bracket, space or an entity that ends the attribute (`&quot;`, `&lt;`, possibly escaped again).
const X_MEDIA =
  /https:\/\/(?:pbs|video|abs)\.twimg\.com\/(?:[^\s"'<>)\]\\&]|&(?!(?:amp;)*(?:quot|lt|gt|apos|#[0-9]+);))+/g;

/** The text with X media URLs pointing at the proxy; unchanged when the proxy is off. */
export function proxyMediaLinks(text: string, media: Services['media'], baseUrl: string): string {
  if (!media.proxy) return text;
  return text.replace(X_MEDIA, (found) => {
    let url = found;
    while (url.includes('&amp;')) url = url.replace(/&amp;/g, '&');
    const path = media.signer.sign(url);
    return path ? `${baseUrl}${path}` : found;
  });
}
