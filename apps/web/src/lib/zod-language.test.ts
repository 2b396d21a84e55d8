import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { i18n } from './i18n.ts';
import { followScreenLanguage } from './zod-language.ts';

describe("zod's own messages follow the screen's language (issue 29)", () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('are Spanish while the screen is, and English again after', async () => {
    followScreenLanguage();
    const tooShort = () => z.string().min(3).safeParse('a').error?.issues[0]?.message;
    expect(tooShort()).toMatch(/^Too small/);
    await i18n.changeLanguage('es');
    expect(tooShort()).toMatch(/^Demasiado pequeño/);
    await i18n.changeLanguage('en');
    expect(tooShort()).toMatch(/^Too small/);
  });
});
