import { useEffect, useState } from 'react';
import { apiBase } from './api.ts';
import { useAuthStore } from './auth-store.ts';

/**
 * A picture only a logged-in member of its organisation may see (a photo, not a brand logo): fetched
 * with the token as a bearer header and shown from a blob: URL, so the token never sits in a URL
 * (where proxies and logs would keep it). Undefined until it has arrived, or when it cannot be had.
 */
export function useProtectedPicture(path: string | null): string | undefined {
  const token = useAuthStore((s) => s.authToken);
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    setSrc(undefined);
    if (!path || !token) return;
    let live = true;
    let objectUrl: string | undefined;
    void fetch(`${apiBase()}${path}`, { headers: { authorization: `Bearer ${token}` } })
      .then((res) => (res.ok ? res.blob() : undefined))
      .then((blob) => {
        if (!blob || !live) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [path, token]);
  return src;
}
