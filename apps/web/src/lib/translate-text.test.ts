import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@floorhand/contract/records/validate';
import { QTY_MESSAGES } from '@floorhand/contract/quantity';
import { i18n } from './i18n.ts';
import { tIssues, tProblem, tText } from './translate-text.ts';

describe('tText', () => {
  afterEach(async () => {
    i18n.removeResourceBundle('xx', 'translation');
    await i18n.changeLanguage('en');
  });

  it('finds a message built from a key with numbered holes in the current language', async () => {
    i18n.addResourceBundle('xx', 'translation', {
      "'{{0}}' must be provided": "'{{0}}' es obligatorio",
      'must have at most {{0}} decimal places': 'admite como mucho {{0}} decimales',
      Quantity: 'Cantidad',
      'Scanner paused': 'Escáner en pausa',
    });
    await i18n.changeLanguage('xx');
    expect(tText(MESSAGES.required('Quantity'))).toBe("'Cantidad' es obligatorio");
    expect(tText(QTY_MESSAGES.scale)).toBe('admite como mucho 4 decimales');
    expect(tText('Scanner paused')).toBe('Escáner en pausa');
    // A text no key matches (a server message already in the language) stays as it is.
    expect(tText('Ya traducido')).toBe('Ya traducido');
  });

  it('leaves English as it is', () => {
    expect(tText(MESSAGES.required('Quantity'))).toBe("'Quantity' must be provided");
  });
});

describe('tProblem', () => {
  it('fills a key with named holes from its values, and reads a text without values with tText', () => {
    expect(tProblem({ message: 'is more than the {{have}} on hand', values: { have: '3' } })).toBe('is more than the 3 on hand');
    expect(tProblem({ message: QTY_MESSAGES.number })).toBe('must be a number');
  });
});

describe('tIssues', () => {
  it('says where and what of each schema problem', () => {
    expect(tIssues([{ path: ['colors', 'primary'], message: 'must be a colour like #1f6f8b' }])).toEqual([
      'colors.primary: must be a colour like #1f6f8b',
    ]);
  });
});
