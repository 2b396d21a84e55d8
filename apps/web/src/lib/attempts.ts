import { useState } from 'react';

/**
 * Idempotency keys for writes (stock changes, saves). One attempt is one change the user asked for; its key and its
 * request (including the record revision read at the start) are frozen, so pressing the button again
 * after a dropped answer re-sends exactly the same request: the server answers what it stored and
 * nothing is applied twice, even if the record has been refreshed (and its revision moved on) by
 * the change itself meanwhile. A different change, or a definite answer, starts a new attempt.
 */
export interface Attempt<B> {
  key: string;
  body: B;
}

export interface Attempts {
  /** The pending attempt when `intent` is the same change again, else a new one with `body()`. */
  begin<B>(intent: unknown, body: () => B): Attempt<B>;
  /** The server answered (done or refused): the next submit is a new attempt. */
  settle(): void;
}

/** Whether an answer's status settles an attempt: anything but a network failure (0) or a server fault (5xx). */
export const isDefinite = (status: number): boolean => status >= 200 && status < 500;

export function createAttempts(newKey: () => string = () => crypto.randomUUID()): Attempts {
  let pending: { intent: string; attempt: Attempt<unknown> } | null = null;
  return {
    begin<B>(intent: unknown, body: () => B): Attempt<B> {
      const key = JSON.stringify(intent);
      if (pending?.intent !== key) pending = { intent: key, attempt: { key: newKey(), body: body() } };
      return pending.attempt as Attempt<B>;
    },
    settle() {
      pending = null;
    },
  };
}

/** A screen's attempts, kept for as long as it is open. */
export const useAttempts = (): Attempts => useState(() => createAttempts())[0];
