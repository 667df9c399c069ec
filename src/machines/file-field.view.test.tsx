import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAnalyticsSink } from '../api/analytics';
import { configureHttp } from '../api/http';
import { jsonResponse } from '../api/testing';
import { MB } from '../../core/files/rules';
import { fixtureBytes, NodeBlob, PNG_SUITE } from '../../core/files/test-fixtures';
import { initI18n, loadBackOfficeTexts } from '../i18n';
import { FileField, type FileFieldChange, type FileFieldProps } from './file-field.view';

/**
 * A PngSuite image as a browser File. jsdom's Blob cannot be read (it has no arrayBuffer()), so
 * the validator's slices come from Node's Blob of the same bytes.
 */
const pngsuite = (name: string) => {
  const bytes = fixtureBytes(PNG_SUITE, name);
  const file = new File([bytes], name, { type: 'image/png' });
  const readable = new NodeBlob([bytes]);
  Object.defineProperty(file, 'slice', { value: readable.slice.bind(readable) });
  return file;
};
/** A PNG-named file of a given size (the drop rules read `size`, never the bytes). */
const sized = (name: string, size: number) => {
  const file = new File(['x'], name, { type: 'image/png' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

/** A stand-in for the asset form: it keeps XFile and XUrl and clears XUrl on remove (spec §3). */
function Form({
  initialFile = null,
  initialUrl = null,
  onChange,
  ...props
}: Partial<FileFieldProps> & { initialFile?: File | null; initialUrl?: string | null }) {
  const [value, setValue] = useState({ file: initialFile, url: initialUrl });
  return (
    <FileField
      label="Icon"
      kind="icon"
      submitted={false}
      {...props}
      file={value.file}
      url={value.url}
      onChange={(change) => {
        onChange?.(change);
        setValue((previous) => ({ file: change.file, url: change.file ? previous.url : null }));
      }}
    />
  );
}

function setup(props: Parameters<typeof Form>[0] = {}) {
  const onChange = vi.fn<(change: FileFieldChange) => void>();
  const view = render(<Form onChange={onChange} {...props} />);
  return { onChange, user: userEvent.setup(), view };
}

const input = () => screen.getByLabelText<HTMLInputElement>('Icon');
const dropArea = () => {
  const area = screen.getByText('or drag and drop').parentElement;
  if (!area) throw new Error('no drop area');
  return area;
};
/** The DataTransfer of a drag from the desktop carrying files (of the 'Files' type). */
const transfer = (...files: File[]) => ({
  dataTransfer: {
    files,
    types: ['Files'],
    effectAllowed: 'all',
    items: files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file })),
  },
});

let tracked: Array<[string, unknown]>;
const createObjectURL = vi.fn((_: Blob) => 'blob:preview');
const revokeObjectURL = vi.fn((_: string) => undefined);

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
  // jsdom has no object URLs.
  Object.assign(URL, { createObjectURL, revokeObjectURL });
});

beforeEach(() => {
  tracked = [];
  setAnalyticsSink((name, props) => tracked.push([name, props]));
  createObjectURL.mockClear();
  revokeObjectURL.mockClear();
});
afterEach(() => setAnalyticsSink(null));

describe('FileField', () => {
  it('offers "Upload a file" and "or drag and drop" when empty, without an error', () => {
    setup({ description: 'PNG, RGBA 8-bit, up to 1024 × 1024, 5 MB' });
    expect(screen.getByRole('button', { name: 'Upload a file' })).toBeInTheDocument();
    expect(screen.getByText('or drag and drop')).toBeInTheDocument();
    expect(input()).not.toHaveAttribute('aria-invalid');
    expect(input()).toHaveAccessibleDescription('PNG, RGBA 8-bit, up to 1024 × 1024, 5 MB');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('takes a valid file from the file dialog and shows its name with Remove', async () => {
    const { onChange, user } = setup();
    const icon = pngsuite('basn6a08.png');
    await user.upload(input(), icon);
    expect(await screen.findByText('basn6a08.png')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove' })).toBeInTheDocument();
    expect(onChange).toHaveBeenCalledExactlyOnceWith({ file: icon, error: null });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('works from the keyboard: the dialog opens, and focus follows Upload ⇄ Remove', async () => {
    const { user } = setup();
    const click = vi.spyOn(input(), 'click');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Upload a file' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(click).toHaveBeenCalledTimes(1);
    // The dialog (a real one is not part of jsdom) hands back a file.
    fireEvent.change(input(), { target: { files: [pngsuite('basn6a08.png')] } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove' })).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Upload a file' })).toHaveFocus();
  });

  it('highlights the drop area while a drag is over it', async () => {
    setup();
    const area = dropArea();
    fireEvent.dragEnter(area, transfer(pngsuite('basn6a08.png')));
    await waitFor(() => expect(area).toHaveAttribute('data-dragging'));
    fireEvent.dragLeave(area, transfer(pngsuite('basn6a08.png')));
    await waitFor(() => expect(area).not.toHaveAttribute('data-dragging'));
  });

  it('reports a dropped file of the wrong type under the field', async () => {
    const { onChange } = setup();
    const notes = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    fireEvent.drop(dropArea(), transfer(notes));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This type of file is not accepted. Accepted: .png.');
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    expect(input()).toHaveAccessibleDescription(alert.textContent ?? '');
    expect(screen.getByRole('button', { name: 'Upload a file' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(onChange).toHaveBeenCalledWith({
      file: notes,
      error: expect.objectContaining({ key: 'fileInput.wrongType' }) as unknown,
    });
  });

  it('reports a file over the size limit', async () => {
    setup();
    fireEvent.drop(dropArea(), transfer(sized('huge.png', 6 * MB)));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file must be at most 5 MB.');
  });

  it('checks the content: an RGB PNG is not an icon', async () => {
    const { user } = setup();
    await user.upload(input(), pngsuite('basn2c08.png'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The image must use the rgba colour type; this one is rgb.',
    );
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    // The prompt stays so another file can be chosen, and that clears the error.
    await user.upload(input(), pngsuite('basn6a08.png'));
    expect(await screen.findByText('basn6a08.png')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(input()).not.toHaveAttribute('aria-invalid');
  });

  it('removes the chosen file and returns to the upload prompt', async () => {
    const { onChange, user } = setup();
    await user.upload(input(), pngsuite('basn6a08.png'));
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    expect(screen.getByRole('button', { name: 'Upload a file' })).toBeInTheDocument();
    expect(screen.queryByText('basn6a08.png')).not.toBeInTheDocument();
    expect(onChange).toHaveBeenLastCalledWith({ file: null, error: null });
  });

  it('clears a rejected file with Remove: the error goes and the form holds no file', async () => {
    const { onChange, user } = setup();
    await user.upload(input(), pngsuite('basn2c08.png'));
    await screen.findByRole('alert');
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(input()).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    expect(onChange).toHaveBeenLastCalledWith({ file: null, error: null });
  });

  it('takes the same file again after it was removed', async () => {
    const { user } = setup();
    const icon = pngsuite('basn6a08.png');
    await user.upload(input(), icon);
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    // The browser fires no change for the file its input already holds: the input is emptied.
    await user.upload(input(), icon);
    expect(await screen.findByText('basn6a08.png')).toBeInTheDocument();
  });

  it('shows a stored file by the last segment of its address, and Remove clears it', async () => {
    const { onChange, user } = setup({ initialUrl: '/v1/uploads/icon/ab12/my%20icon.png' });
    expect(screen.getByText('my icon.png')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(onChange).toHaveBeenCalledExactlyOnceWith({ file: null, error: null });
    expect(screen.getByRole('button', { name: 'Upload a file' })).toBeInTheDocument();
  });

  it('holds the size line while a stored file is read, and is busy until its name and size come', async () => {
    let answer = (_: Response) => {};
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    configureHttp({ fetch });
    try {
      const { view } = setup({ initialUrl: '/files/0a1b2c.png' });
      const field = view.container.querySelector('.file-drop')!;
      expect(field).toHaveAttribute('aria-busy', 'true');
      // The line the size will fill is there already (empty): the field keeps its height.
      expect(field.querySelector('.file-drop-size')?.textContent).toBe('\u00a0');
      await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
      answer(
        jsonResponse(200, {
          data: {
            url: '/files/0a1b2c.png',
            name: 'hat icon.png',
            size: 2048,
            contentType: 'image/png',
          },
        }),
      );
      await screen.findByText('hat icon.png');
      expect(field.querySelector('.file-drop-size')?.textContent).toBe('2 KB');
      expect(field).not.toHaveAttribute('aria-busy');
    } finally {
      configureHttp({ fetch: globalThis.fetch });
    }
  });

  it('hides the error of an untouched field until the form is submitted', async () => {
    const bad = pngsuite('basn2c08.png');
    const { onChange, view } = setup({ initialFile: bad });
    // The form learns the error at once (so it can block the submit)...
    await waitFor(() =>
      expect(onChange).toHaveBeenCalledWith({
        file: bad,
        error: expect.objectContaining({ key: 'fileInput.wrongColorType' }) as unknown,
      }),
    );
    // ...but the field was not touched, so the user sees nothing yet.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(input()).not.toHaveAttribute('aria-invalid');
    view.rerender(<Form onChange={onChange} initialFile={bad} submitted />);
    expect(screen.getByRole('alert')).toHaveTextContent('rgba colour type');
    expect(input()).toHaveAttribute('aria-invalid', 'true');
  });

  it('tracks selection, errors and removal without file names', async () => {
    const { user } = setup({ kind: 'texture', label: 'Icon' });
    const ok = pngsuite('basn2c08.png');
    await user.upload(input(), ok);
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    fireEvent.drop(dropArea(), transfer(sized('huge.png', 6 * MB)));
    await screen.findByRole('alert');
    expect(tracked).toEqual([
      ['file selected', { kind: 'texture', size: ok.size }],
      ['file removed', { kind: 'texture' }],
      ['file selected', { kind: 'texture', size: 6 * MB }],
      ['file error', { kind: 'texture', size: 6 * MB, error: 'fileInput.tooLarge' }],
    ]);
    expect(JSON.stringify(tracked)).not.toMatch(/basn2c08|huge/);
  });

  it('previews a chosen image at the given size and frees it on remove', async () => {
    const { user } = setup({ preview: { width: 64, height: 64 } });
    const icon = pngsuite('basn6a08.png');
    await user.upload(input(), icon);
    const image = await screen.findByRole('img', { name: 'basn6a08.png' });
    expect(image).toHaveAttribute('src', 'blob:preview');
    expect(image).toHaveAttribute('width', '64');
    expect(createObjectURL).toHaveBeenCalledWith(icon);
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:preview');
  });

  it('button variant: an upload button when empty, Remove once a file is chosen', async () => {
    const { user } = setup({ variant: 'button' });
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument();
    expect(screen.queryByText('or drag and drop')).not.toBeInTheDocument();
    await user.upload(input(), pngsuite('basn6a08.png'));
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument();
  });

  it('takes nothing while disabled', async () => {
    const { onChange } = setup({ disabled: true });
    expect(screen.getByRole('button', { name: 'Upload a file' })).toBeDisabled();
    await act(async () => {
      fireEvent.drop(dropArea(), transfer(pngsuite('basn6a08.png')));
      await Promise.resolve();
    });
    expect(onChange).not.toHaveBeenCalled();
  });
});
