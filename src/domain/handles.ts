// The shape of an account handle, declared once: validation, recovery pages and the Markdown dialects read it.

/** 1-15 letters, digits or underscores, without the leading @. */
export const HANDLE_RE = /^[A-Za-z0-9_]{1,15}$/;
