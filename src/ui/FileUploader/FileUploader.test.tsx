// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeRequest } from './fake-request';
import { FileUploader, type FileUploaderHandle, type FileUploaderProps } from './FileUploader';

function renderUploader(props: Partial<FileUploaderProps> = {}) {
  const ref = createRef<FileUploaderHandle>();
  render(<FileUploader label="Attachment" uploadUrl="/upload" {...props} ref={ref} />);
  const handle = () => {
    if (!ref.current) throw new Error('no handle');
    return ref.current;
  };
  return { handle };
}

function fileInput() {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  return input;
}

function chooseFile(file: File) {
  fireEvent.change(fileInput(), { target: { files: [file] } });
}

function dataTransferWith(...files: File[]) {
  return { types: ['Files'], files, dropEffect: 'none' };
}

function lastRequest() {
  const request = FakeRequest.instances.at(-1);
  if (!request) throw new Error('no request');
  return request;
}

const notes = new File(['hello world'], 'notes.txt', { type: 'text/plain' });

describe('FileUploader', () => {
  beforeEach(() => {
    FakeRequest.instances = [];
    vi.stubGlobal('XMLHttpRequest', FakeRequest);
    URL.createObjectURL = vi.fn(() => 'blob:preview');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('starts empty, inviting a drop or a choice', () => {
    renderUploader();
    expect(screen.getByRole('group', { name: 'Attachment' })).toBeDefined();
    expect(screen.getByText('Drag and drop file here or')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Choose a file' })).toBeDefined();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('takes only one file and restricts no type', () => {
    renderUploader();
    expect(fileInput().multiple).toBe(false);
    expect(fileInput().hasAttribute('accept')).toBe(false);
  });

  it('opens the file picker from "Choose a file"', () => {
    renderUploader();
    const click = vi.spyOn(fileInput(), 'click');
    fireEvent.click(screen.getByRole('button', { name: 'Choose a file' }));
    expect(click).toHaveBeenCalled();
  });

  it('lists a chosen file with its name, size, a Pending badge and a remove button', () => {
    const onFileChange = vi.fn();
    renderUploader({ onFileChange });
    chooseFile(notes);
    const item = screen.getByRole('listitem');
    expect(item.textContent).toContain('notes.txt');
    expect(item.textContent).toContain('11 Bytes');
    expect(screen.getByRole('status').textContent).toBe('Pending');
    expect(screen.getByRole('button', { name: 'Remove notes.txt' })).toBeDefined();
    expect(onFileChange).toHaveBeenCalledWith(notes);
  });

  it('says "Drop file to add" while a file is dragged over', () => {
    renderUploader();
    const zone = screen.getByRole('group', { name: 'Attachment' });
    fireEvent.dragEnter(zone, { dataTransfer: dataTransferWith(notes) });
    expect(screen.getByText('Drop file to add')).toBeDefined();
    expect(zone.hasAttribute('data-dragging')).toBe(true);
    fireEvent.dragLeave(zone, { dataTransfer: dataTransferWith(notes) });
    expect(screen.getByText('Drag and drop file here or')).toBeDefined();
  });

  it('adds a dropped file', () => {
    renderUploader();
    const zone = screen.getByRole('group', { name: 'Attachment' });
    fireEvent.dragEnter(zone, { dataTransfer: dataTransferWith(notes) });
    fireEvent.drop(zone, { dataTransfer: dataTransferWith(notes) });
    expect(screen.getByRole('listitem').textContent).toContain('notes.txt');
    expect(zone.hasAttribute('data-dragging')).toBe(false);
  });

  it('keeps the first of several dropped files and warns about the rest', () => {
    renderUploader();
    const other = new File(['x'], 'other.txt');
    fireEvent.drop(screen.getByRole('group'), { dataTransfer: dataTransferWith(notes, other) });
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByRole('listitem').textContent).toContain('notes.txt');
    expect(console.warn).toHaveBeenCalled();
  });

  it('replaces the first file with a second choice', () => {
    renderUploader();
    chooseFile(notes);
    chooseFile(new File(['abc'], 'second.txt'));
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByRole('listitem').textContent).toContain('second.txt');
  });

  it('refuses a file over 25 MB with the catalogue message and a warning icon', () => {
    renderUploader();
    const big = new File([], 'huge.bin');
    Object.defineProperty(big, 'size', { value: 26214401 });
    chooseFile(big);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('File size exceeds 25 MB, please upload a smaller file.');
    expect(alert.querySelector('path')?.getAttribute('d')).toMatch(/^M1 21h22/);
    expect(screen.queryByRole('listitem')).toBeNull();
  });

  it('takes a file of exactly 25 MB', () => {
    renderUploader();
    const limit = new File([], 'limit.bin');
    Object.defineProperty(limit, 'size', { value: 26214400 });
    chooseFile(limit);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('listitem').textContent).toContain('25 MB');
  });

  it('shows a preview of a chosen image', () => {
    renderUploader();
    chooseFile(new File(['png'], 'photo.png', { type: 'image/png' }));
    expect(document.querySelector('img')?.getAttribute('src')).toBe('blob:preview');
  });

  it('uploads with a progress bar and percentage, then shows Uploaded', async () => {
    const onUploaded = vi.fn();
    const { handle } = renderUploader({ onUploaded });
    chooseFile(notes);
    let done: Promise<void> = Promise.resolve();
    act(() => {
      done = handle().upload();
    });
    const request = lastRequest();
    expect(request.method).toBe('PUT');
    expect(request.url).toBe('/upload');
    expect(screen.getByRole('status').textContent).toBe('Uploading');
    act(() => {
      request.progress(5, 11);
    });
    expect(
      screen.getByRole('progressbar', { name: 'Uploading notes.txt' }).getAttribute('value'),
    ).toBe('45');
    expect(screen.getByText('45%', { ignore: 'progress' })).toBeDefined();
    await act(async () => {
      request.finish(200);
      await done;
    });
    expect(screen.getByRole('status').textContent).toBe('Uploaded');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(onUploaded).toHaveBeenCalledWith(notes, 200);
  });

  it('uploads as soon as a file is chosen when asked to', () => {
    renderUploader({ autoUpload: true });
    chooseFile(notes);
    expect(FakeRequest.instances).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toBe('Uploading');
    act(() => {
      lastRequest().finish(200);
    });
  });

  it('raises an error naming the file, status, status text and response on a non-2xx answer', async () => {
    const onUploadError = vi.fn();
    const { handle } = renderUploader({ onUploadError });
    chooseFile(notes);
    let done: Promise<void> = Promise.resolve();
    act(() => {
      done = handle().upload();
    });
    await act(async () => {
      lastRequest().finish(500, 'Internal Server Error', 'boom');
      await done.catch(() => undefined);
    });
    await expect(done).rejects.toMatchObject({ kind: 'status', status: 500 });
    expect(onUploadError).toHaveBeenCalledWith(
      expect.objectContaining({
        message: 'Upload of "notes.txt" failed: 500 Internal Server Error boom',
      }),
    );
    expect(console.error).toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toContain('could not be uploaded');
  });

  it('emits the upload-error event and logs a hint on a network error', async () => {
    const onUploadError = vi.fn();
    const { handle } = renderUploader({ onUploadError });
    chooseFile(notes);
    let done: Promise<void> = Promise.resolve();
    act(() => {
      done = handle().upload();
    });
    await act(async () => {
      lastRequest().fire('error');
      await done.catch(() => undefined);
    });
    expect(onUploadError).toHaveBeenCalledWith(expect.objectContaining({ kind: 'network' }));
    expect(console.error).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringContaining('cross-origin') as unknown }),
    );
  });

  it('only logs an abort', async () => {
    const onUploadError = vi.fn();
    const { handle } = renderUploader({ onUploadError });
    chooseFile(notes);
    let done: Promise<void> = Promise.resolve();
    act(() => {
      done = handle().upload();
    });
    await act(async () => {
      handle().abort();
      await done.catch(() => undefined);
    });
    expect(console.warn).toHaveBeenCalledWith('Upload of "notes.txt" was aborted.');
    expect(onUploadError).not.toHaveBeenCalled();
  });

  it('refuses to upload, with a logged error, when no file is chosen', async () => {
    const { handle } = renderUploader();
    await expect(handle().upload()).rejects.toMatchObject({ kind: 'refused' });
    expect(console.error).toHaveBeenCalled();
    expect(FakeRequest.instances).toHaveLength(0);
  });

  it('refuses to upload, with a logged error, without an upload address', async () => {
    const { handle } = renderUploader({ uploadUrl: undefined });
    chooseFile(notes);
    await expect(handle().upload()).rejects.toMatchObject({ kind: 'refused' });
    expect(console.error).toHaveBeenCalled();
    expect(FakeRequest.instances).toHaveLength(0);
  });

  it('removes the file, stops its upload and returns focus to "Choose a file"', () => {
    const onFileChange = vi.fn();
    const { handle } = renderUploader({ onFileChange });
    chooseFile(notes);
    act(() => {
      handle()
        .upload()
        .catch(() => undefined);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Remove notes.txt' }));
    expect(lastRequest().aborted).toBe(true);
    expect(screen.queryByRole('listitem')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose a file' }));
    expect(onFileChange).toHaveBeenLastCalledWith(null);
  });
});
