import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QuantityInput } from './quantity-input.tsx';

afterEach(cleanup);

function renderInput(uom: string, onChange = vi.fn()) {
  render(
    <MantineProvider>
      <QuantityInput label="Quantity" value="" onChange={onChange} uom={uom} data-testid="qty" />
    </MantineProvider>,
  );
  return { input: screen.getByTestId('qty'), onChange };
}

describe('QuantityInput', () => {
  it('offers a whole-number pad for a unit counted in whole units, a decimal pad otherwise', () => {
    expect(renderInput('EA').input.getAttribute('inputmode')).toBe('numeric');
    cleanup();
    expect(renderInput('KG').input.getAttribute('inputmode')).toBe('decimal');
    expect(screen.getByText('KG')).toBeTruthy();
  });

  it('hands over the text as typed (a decimal comma included) for the caller to read', () => {
    const { input, onChange } = renderInput('KG');
    fireEvent.change(input, { target: { value: '1,5' } });
    expect(onChange).toHaveBeenCalledWith('1,5');
    expect(input.getAttribute('autocomplete')).toBe('off');
  });
});
