import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { FileDrop, type FileDropProps } from './file-drop';

const LABELS = {
  upload: 'Upload a file',
  dragAndDrop: 'or drag and drop',
  remove: 'Remove',
  download: 'Download',
  checking: 'Checking the file…',
};

function renderDrop(props: Partial<FileDropProps> = {}) {
  const callbacks = {
    onSelect: vi.fn(),
    onDragEnter: vi.fn(),
    onDragLeave: vi.fn(),
    onRemove: vi.fn(),
  };
  const all: FileDropProps = {
    label: 'Texture',
    accept: { 'image/png': ['.png'] },
    status: 'empty',
    fileName: null,
    dragging: false,
    error: null,
    labels: LABELS,
    ...callbacks,
    ...props,
  };
  const view = render(<FileDrop {...all} />);
  return {
    ...callbacks,
    view,
    rerender: (next: Partial<FileDropProps>) => view.rerender(<FileDrop {...all} {...next} />),
  };
}

const png = (size: number, name = 'a.png') => {
  const file = new File(['x'], name, { type: 'image/png' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
};
/** The DataTransfer of a drag from the desktop carrying files. */
const transfer = (...files: File[]) => ({
  dataTransfer: {
    files,
    types: ['Files'],
    effectAllowed: 'all',
    items: files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file })),
  },
});
const area = () => screen.getByText(LABELS.dragAndDrop).parentElement as HTMLElement;
const drop = (...files: File[]) => fireEvent.drop(area(), transfer(...files));

const createObjectURL = vi.fn((_: Blob) => 'blob:one');
const revokeObjectURL = vi.fn((_: string) => undefined);
// jsdom has no object URLs.
beforeAll(() => {
  Object.assign(URL, { createObjectURL, revokeObjectURL });
});

describe('FileDrop', () => {
  it.each([
    ['an image', png(100)],
    // The drop rules (type, size) are the field's: the area hands over whatever is dropped.
    ['a text file', new File(['hello world'], 'notes.txt', { type: 'text/plain' })],
  ])('hands %s dropped on the area to onSelect', async (_, file) => {
    const { onSelect } = renderDrop();
    drop(file);
    await waitFor(() => expect(onSelect).toHaveBeenCalledWith(file));
  });

  it('takes a dropped file that has no file system entry (an image dragged out of a page)', () => {
    const { onSelect } = renderDrop();
    const file = png(100);
    const item = {
      kind: 'file',
      type: file.type,
      getAsFile: () => file,
      webkitGetAsEntry: () => null,
    };
    fireEvent.drop(area(), { dataTransfer: { files: [file], types: ['Files'], items: [item] } });
    expect(onSelect).toHaveBeenCalledExactlyOnceWith(file);
  });

  it('takes the first of two files dropped on a single-file field', async () => {
    const { onSelect } = renderDrop();
    const first = png(100, 'first.png');
    drop(first, png(100, 'second.png'));
    await waitFor(() => expect(onSelect).toHaveBeenCalledWith(first));
    expect(onSelect).toHaveBeenCalledTimes(1);
  });

  it('says when a drag of files enters and leaves, and not for a drag of text', () => {
    const { onDragEnter, onDragLeave } = renderDrop();
    fireEvent.dragEnter(area(), transfer(png(100)));
    expect(onDragEnter).toHaveBeenCalledTimes(1);
    fireEvent.dragLeave(area(), transfer(png(100)));
    expect(onDragLeave).toHaveBeenCalledTimes(1);
    const text = { types: ['text/plain'], effectAllowed: 'all', items: [] };
    fireEvent.dragEnter(area(), { dataTransfer: text });
    fireEvent.dragLeave(area(), { dataTransfer: text });
    expect(onDragEnter).toHaveBeenCalledTimes(1);
    expect(onDragLeave).toHaveBeenCalledTimes(1);
  });

  it('takes a file pasted while focus is in the field, but not while disabled', () => {
    const { onSelect, rerender } = renderDrop();
    const file = png(100);
    const upload = screen.getByRole('button', { name: LABELS.upload });
    fireEvent.paste(upload, { clipboardData: { files: [file] } });
    expect(onSelect).toHaveBeenCalledExactlyOnceWith(file);
    rerender({ disabled: true });
    fireEvent.paste(upload, { clipboardData: { files: [file] } });
    expect(onSelect).toHaveBeenCalledTimes(1);
  });

  it('keeps a file dropped beside the area from opening in the tab', () => {
    renderDrop();
    const beside = fireEvent.drop(document.body, transfer(png(100)));
    // fireEvent answers false when the default action (opening the file) was prevented.
    expect(beside).toBe(false);
  });

  it('opens the file dialog from the upload button, offering the accepted types', () => {
    renderDrop();
    const input = screen.getByLabelText<HTMLInputElement>('Texture');
    expect(input).toHaveAttribute('accept', 'image/png,.png');
    const click = vi.spyOn(input, 'click');
    fireEvent.click(screen.getByRole('button', { name: LABELS.upload }));
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('ends the drag when a drop brings no file', async () => {
    const { onDragLeave, onSelect } = renderDrop({ dragging: true });
    drop();
    await waitFor(() => expect(onDragLeave).toHaveBeenCalled());
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('announces a check in progress instead of the prompt', () => {
    renderDrop({ status: 'validating' });
    expect(screen.getByRole('status')).toHaveTextContent('Checking the file…');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('marks the area while dragging and while invalid', () => {
    const { rerender } = renderDrop({ dragging: true });
    const area = screen.getByText(LABELS.dragAndDrop).parentElement;
    expect(area).toHaveAttribute('data-dragging');
    rerender({ dragging: false, status: 'invalid', error: 'Too big.' });
    expect(area).not.toHaveAttribute('data-dragging');
    expect(area).toHaveAttribute('data-invalid');
    expect(screen.getByRole('alert')).toHaveTextContent('Too big.');
  });

  it('previews a stored image by its address', () => {
    renderDrop({
      status: 'chosen',
      fileName: 'icon.png',
      previewUrl: '/v1/uploads/icon/1/icon.png',
      preview: { width: 48, height: 32 },
    });
    const image = screen.getByRole('img', { name: 'icon.png' });
    expect(image).toHaveAttribute('src', '/v1/uploads/icon/1/icon.png');
    expect(image).toHaveAttribute('height', '32');
  });

  it('frees the object URL of a replaced or unmounted preview', () => {
    const first = png(100, 'first.png');
    const { rerender, view } = renderDrop({
      status: 'chosen',
      fileName: 'first.png',
      previewFile: first,
      preview: { width: 48, height: 48 },
    });
    expect(createObjectURL).toHaveBeenLastCalledWith(first);
    createObjectURL.mockReturnValueOnce('blob:two');
    const second = png(100, 'second.png');
    rerender({
      status: 'chosen',
      fileName: 'second.png',
      previewFile: second,
      preview: { width: 48, height: 48 },
    });
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:one');
    expect(screen.getByRole('img', { name: 'second.png' })).toHaveAttribute('src', 'blob:two');
    view.unmount();
    expect(revokeObjectURL).toHaveBeenLastCalledWith('blob:two');
  });

  it('does not preview a file that is not an image', () => {
    renderDrop({
      status: 'chosen',
      fileName: 'model.glb',
      previewFile: new File(['glTF'], 'model.glb', { type: 'model/gltf-binary' }),
      preview: { width: 48, height: 48 },
    });
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByText('model.glb')).toBeInTheDocument();
  });

  it('removes with the Remove button, described by the file name', () => {
    const { onRemove } = renderDrop({ status: 'chosen', fileName: 'icon.png' });
    const remove = screen.getByRole('button', { name: 'Remove' });
    expect(remove).toHaveAccessibleDescription('icon.png');
    fireEvent.click(remove);
    expect(onRemove).toHaveBeenCalledTimes(1);
  });

  it('shows a stored file by its name and size, on one line, with a link that downloads it', () => {
    const name = 'A very long original file name of an avatar model, final version (2).glb';
    renderDrop({
      status: 'chosen',
      fileName: name,
      fileSize: '1.1 MB',
      downloadUrl: '/files/0123456789abcdef01234567.glb?download',
    });
    expect(screen.getByText(name)).toHaveAttribute('title', name);
    const download = screen.getByRole('link', { name: 'Download' });
    expect(download).toHaveAttribute('href', '/files/0123456789abcdef01234567.glb?download');
    expect(download).toHaveAttribute('download', name);
    expect(download).toHaveAccessibleDescription(name);
    expect(screen.getByText('1.1 MB')).toBeInTheDocument();
  });

  it('offers no download for a file that is not uploaded yet', () => {
    renderDrop({ status: 'chosen', fileName: 'icon.png', fileSize: '2 KB' });
    expect(screen.getByText('2 KB')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Download' })).toBeNull();
  });
});
