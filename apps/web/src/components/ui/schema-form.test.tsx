import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { GENERAL_ID_MESSAGE } from '@floorhand/contract/records/patterns';
import type { EntityDef } from '@floorhand/contract/records/schema-model';
import '../../lib/i18n.ts';
import { SchemaForm, type SchemaFormProps } from './schema-form.tsx';

const thing: EntityDef = {
  type: 'demoThing',
  title: 'Example Thing',
  idFieldName: 'code',
  fields: [
    { name: 'code', label: 'Code', dataType: 'string', conditions: { required: true, regex: 'generalId' } },
    { name: 'qty', label: 'Quantity', dataType: 'numeric', entryMethod: true, conditions: { min: 1 } },
    { name: 'made', label: 'Made On', dataType: 'date' },
    { name: 'kind', label: 'Kind', dataType: 'string', conditions: { valid: ['bin', 'rack'] } },
    { name: 'active', label: 'Active', dataType: 'boolean' },
    { name: 'tags', label: 'Tags', dataType: 'array', items: { name: 'tag', label: 'Tag', dataType: 'string' }, conditions: { max: 2 } },
  ],
};

function renderForm(props: Partial<SchemaFormProps> = {}) {
  const onSubmit = props.onSubmit ?? vi.fn();
  render(
    <MantineProvider>
      <SchemaForm entity={thing} onSubmit={onSubmit} {...props} />
    </MantineProvider>,
  );
  return { onSubmit };
}

const field = (name: string) => screen.getByTestId(`field-${name}`);
const type = (name: string, value: string) => {
  fireEvent.change(field(name), { target: { value } });
  fireEvent.blur(field(name));
};
const submit = () => fireEvent.click(screen.getByTestId('schema-form-submit'));

afterEach(cleanup);

describe('SchemaForm', () => {
  it('renders a labelled input per field, an entry-method select and the pattern hints', () => {
    renderForm();
    for (const label of ['Code', 'Quantity', 'Made On', 'Kind', 'Active', 'Tags']) expect(screen.getByText(label)).toBeTruthy();
    expect(screen.getByLabelText('Quantity: Entry method')).toBeTruthy();
    expect(field('made').getAttribute('placeholder')).toBe('YYYY-MM-DD');
    expect(field('active').getAttribute('type')).toBe('checkbox');
  });

  it("shows each field's errors with the spec's messages when the field is left", async () => {
    renderForm();
    type('code', '_bad');
    type('qty', '0');
    type('made', '2023-02-30');
    expect(await screen.findByText(`'Code' ${GENERAL_ID_MESSAGE}`)).toBeTruthy();
    expect(screen.getByText("'Quantity' must be at least 1")).toBeTruthy();
    expect(screen.getByText("'Made On' must match pattern 'YYYY-MM-DD'")).toBeTruthy();
    // Fixing a field clears its message as the user types.
    type('code', 'GOOD');
    await waitFor(() => expect(screen.queryByText(`'Code' ${GENERAL_ID_MESSAGE}`)).toBeNull());
  });

  it('does not submit an invalid record and shows every missing value', async () => {
    const { onSubmit } = renderForm();
    submit();
    expect(await screen.findByText("'Code' must be provided")).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits the converted record when it is valid', async () => {
    const { onSubmit } = renderForm({ initialValue: { _id: 'A1', _rev: 3, code: 'A1' }, editing: true });
    expect((field('code') as HTMLInputElement).disabled).toBe(true);
    type('qty', '12');
    type('made', '2024-02-29');
    submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit).toHaveBeenCalledWith({ _id: 'A1', _rev: 3, code: 'A1', qty: 12, made: '2024-02-29', active: false });
  });

  it("puts the server's per-field errors back on the fields", async () => {
    const detail = JSON.stringify({
      errors: {
        qty: ["Validation for data field 'Quantity' failed to pass"],
        _record: ["Calulation script for 'Example Thing' failed during execution"],
      },
      calcError: 'script exceeded its time limit of 50 ms',
    });
    const onSubmit = vi.fn().mockRejectedValue({ err: { code: 'ERR_BAD_INPUT', message: 'The request is not valid', detail } });
    renderForm({ onSubmit, initialValue: { code: 'B2' } });
    submit();
    expect(await screen.findByText("Validation for data field 'Quantity' failed to pass")).toBeTruthy();
    const alert = screen.getByTestId('schema-form-errors');
    expect(alert.textContent).toContain("Calulation script for 'Example Thing' failed during execution");
    expect(alert.textContent).toContain('time limit');
  });
});
