vcl 4.1;
# Varnish in front of threadmark (docs/deployment.md#a-cdn-in-front): keeps public reads for exactly the lifetimes
# the service announces (s-maxage, stale-while-revalidate, stale-if-error), keys them on what the service varies on
# (Accept, Accept-Encoding, X-Link-Preview), never stores keyed, private or problem answers, and hands the
# revalidation of an expired copy to the service as a conditional request (a 304 refreshes it).
# Checked by test/e2e/varnish.test.ts against a real varnishd.

import std;

# The load balancer (deploy/haproxy.cfg) or a single instance.
backend default {
    .host = "haproxy";
    .port = "8080";
    .connect_timeout = 2s;
    # Above the service's longest read (upstream retries within their deadline).
    .first_byte_timeout = 60s;
    .between_bytes_timeout = 30s;
    .probe = {
        .url = "/healthz";
        .interval = 5s;
        .timeout = 2s;
        .window = 3;
        .threshold = 2;
        # Healthy from the start: a fresh Varnish answers before its first probe has come back.
        .initial = 2;
    }
}

sub vcl_recv {
    # Per-instance figures, not for the public (Prometheus scrapes each instance directly).
    if (req.url ~ "^/metrics(\?|$)") {
        return (synth(404));
    }
    # The client is whoever connected here: an X-Forwarded-For it wrote is dropped, so the rate limits behind
    # (THREADMARK_TRUST_PROXY counts this hop and the load balancer's) see the real address.
    set req.http.X-Forwarded-For = client.ip;

    # The crawler split of the permalinks: the service varies on this header instead of on the User-Agent, so
    # every crawler shares one copy and everyone else another. Always set here: a value a client sent is
    # overwritten. The tokens are those of src/contract/link-preview.ts (the test compares them).
    if (req.http.User-Agent ~ "(?i)(Slackbot|Slack-ImgProxy|Discordbot|TelegramBot|Twitterbot|facebookexternalhit|Facebot|LinkedInBot|WhatsApp|Mastodon/|Pleroma|Misskey|Cardyb|Synapse|SkypeUriPreview|redditbot|Pinterestbot|vkShare|Viber|ZulipURLPreview|Mattermost-Bot|Iframely|Embedly)") {
        set req.http.X-Link-Preview = "1";
    } else {
        set req.http.X-Link-Preview = "0";
    }
    # No Accept and Accept: */* are answered alike: one copy for both.
    if (!req.http.Accept || req.http.Accept ~ "^\s*\*/\*\s*$") {
        set req.http.Accept = "*/*";
    }

    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # Keyed reads are private to their key (and the admin and MCP routes are not public reads).
    if (req.http.Authorization || req.url ~ "^/(admin|mcp)(/|\?|$)") {
        return (pass);
    }
    # Cookies mean nothing to the service: dropping them keeps them from making every request a pass.
    unset req.http.Cookie;
    return (hash);
}

sub vcl_backend_response {
    # Varnish takes the lifetime from s-maxage and the grace from stale-while-revalidate itself. stale-if-error
    # becomes the keep: past its grace an expired copy is still revalidated with If-None-Match (a 304 from the
    # service refreshes it without a body) rather than fetched again.
    if (beresp.http.Cache-Control ~ "stale-if-error=[0-9]+") {
        set beresp.keep = std.duration(regsub(beresp.http.Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1s"), 0s);
    }
    # A background refresh that fails keeps serving the copy in grace instead of replacing it with the error.
    if (beresp.status >= 500 && bereq.is_bgfetch) {
        return (abandon);
    }
    # private, no-store, no-cache and problems (no-store) fall to the built-in rule: not stored, and the
    # requests for that URL go to the service without waiting on each other for a short while.
}

sub vcl_backend_error {
    if (bereq.is_bgfetch) {
        return (abandon);
    }
}

sub vcl_deliver {
    # Where the answer came from: X-Cache is the service's own cache status, X-CDN-Cache is this cache's.
    if (obj.uncacheable) {
        set resp.http.X-CDN-Cache = "pass";
    } elsif (obj.hits > 0) {
        set resp.http.X-CDN-Cache = "hit";
        # The rate-limit fields and the request id described the client whose request filled the copy; a copy
        # served from here was charged to nobody.
        unset resp.http.RateLimit;
        unset resp.http.RateLimit-Limit;
        unset resp.http.RateLimit-Remaining;
        unset resp.http.RateLimit-Reset;
        unset resp.http.X-Request-Id;
    } else {
        set resp.http.X-CDN-Cache = "miss";
    }
}
