import { useEffect, useState } from 'react';

/**
 * The server's time in whole seconds, ticking every second: the answer's serverTime plus the time
 * passed since it arrived, so a device whose clock is off still shows what the server will book.
 */
export function useServerNow(serverTime: string | undefined): number {
  const [offset, setOffset] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (serverTime) setOffset(Date.parse(serverTime) - Date.now());
  }, [serverTime]);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  return Math.floor((now + offset) / 1000);
}
