// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Chip } from './Chip';

describe('Chip', () => {
  afterEach(cleanup);

  it('is a toggle button named by its visible title and description', () => {
    render(<Chip title="Pets" description="Care for your animals" />);
    const chip = screen.getByRole('button', { name: 'Pets Care for your animals' });
    expect(chip.getAttribute('aria-pressed')).toBe('false');
  });

  it('is described by what its owner points at', () => {
    render(<Chip title="Pets" description="d" aria-describedby="topics-error" />);
    expect(screen.getByRole('button').getAttribute('aria-describedby')).toBe('topics-error');
  });

  it('toggles a button chip on click', () => {
    const onSelectedChange = vi.fn();
    render(<Chip title="Pets" description="d" onSelectedChange={onSelectedChange} />);
    const chip = screen.getByRole('button', { name: /^Pets\b/ });
    fireEvent.click(chip);
    expect(chip.getAttribute('aria-pressed')).toBe('true');
    expect(chip.hasAttribute('data-selected')).toBe(true);
    fireEvent.click(chip);
    expect(chip.hasAttribute('data-selected')).toBe(false);
    expect(onSelectedChange.mock.calls).toEqual([[true], [false]]);
  });

  it('follows its selected prop when controlled', () => {
    function Controlled() {
      const [selected, setSelected] = useState(true);
      return (
        <Chip title="Home" description="d" selected={selected} onSelectedChange={setSelected} />
      );
    }
    render(<Controlled />);
    const chip = screen.getByRole('button', { name: /^Home\b/ });
    expect(chip.hasAttribute('data-selected')).toBe(true);
    fireEvent.click(chip);
    expect(chip.hasAttribute('data-selected')).toBe(false);
  });

  it('does not change when disabled', () => {
    const onSelectedChange = vi.fn();
    render(<Chip title="Auto" description="d" disabled onSelectedChange={onSelectedChange} />);
    const chip = screen.getByRole('button', { name: /^Auto\b/ });
    expect(chip.hasAttribute('data-disabled')).toBe(true);
    fireEvent.click(chip);
    expect(onSelectedChange).not.toHaveBeenCalled();
  });

  it('shows its error state as a data attribute', () => {
    render(<Chip title="Auto" description="d" error />);
    expect(screen.getByRole('button').hasAttribute('data-invalid')).toBe(true);
  });

  it('selects a radio chip on change and deselects it when another of its group is chosen', () => {
    render(
      <fieldset>
        <legend>Cover</legend>
        <Chip variant="radio" name="cover" value="life" title="Life" description="d" />
        <Chip variant="radio" name="cover" value="home" title="Home" description="d" />
      </fieldset>,
    );
    const life = screen.getByRole('radio', { name: /^Life\b/ });
    const home = screen.getByRole('radio', { name: /^Home\b/ });
    fireEvent.click(life);
    expect(life.closest('label')?.hasAttribute('data-selected')).toBe(true);
    fireEvent.click(home);
    expect(home.closest('label')?.hasAttribute('data-selected')).toBe(true);
    expect(life.closest('label')?.hasAttribute('data-selected')).toBe(false);
  });

  it('toggles a checkbox chip on change', () => {
    render(<Chip variant="checkbox" name="topics" value="pets" title="Pets" description="d" />);
    const box = screen.getByRole('checkbox', { name: /^Pets\b/ });
    fireEvent.click(box);
    expect(box.closest('label')?.hasAttribute('data-selected')).toBe(true);
    fireEvent.click(box);
    expect(box.closest('label')?.hasAttribute('data-selected')).toBe(false);
  });

  it('carries the check mark of a radio or checkbox chip while unchecked, for its input to show', () => {
    const { container } = render(
      <Chip variant="checkbox" name="topics" value="pets" title="Pets" description="d" />,
    );
    const label = screen.getByRole('checkbox', { name: /^Pets\b/ }).closest('label');
    expect(label?.querySelector('svg[viewBox="0 0 24 24"]')).not.toBeNull();
    expect(container.querySelector('label > input:first-child')).not.toBeNull();
  });

  it('draws the check mark of a button chip only while it is selected', () => {
    const { container } = render(<Chip title="Pets" description="d" />);
    expect(container.querySelector('svg[viewBox="0 0 24 24"]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /^Pets\b/ }));
    expect(container.querySelector('svg[viewBox="0 0 24 24"]')).not.toBeNull();
  });

  it('marks an input chip in error as invalid', () => {
    render(<Chip variant="checkbox" name="t" value="v" title="Terms" description="d" error />);
    expect(screen.getByRole('checkbox').getAttribute('aria-invalid')).toBe('true');
  });

  it('is a link to its address', () => {
    render(<Chip variant="link" href="/requests" title="Requests" description="d" />);
    expect(screen.getByRole('link', { name: /^Requests\b/ }).getAttribute('href')).toBe(
      '/requests',
    );
  });

  it('opens an external link in a new tab and says so', () => {
    render(
      <Chip variant="external-link" href="https://example.com" title="Partner" description="d" />,
    );
    const link = screen.getByRole('link', { name: 'Partner d (opens in a new tab)' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('is a disabled link without an address when disabled', () => {
    render(<Chip variant="link" href="/x" title="Gone" description="d" disabled />);
    const link = screen.getByRole('link', { name: /^Gone\b/ });
    expect(link.hasAttribute('href')).toBe(false);
    expect(link.getAttribute('aria-disabled')).toBe('true');
  });

  it('shows the default image only when asked', () => {
    const { container, rerender } = render(<Chip title="A" description="d" />);
    expect(container.querySelector('svg[viewBox="0 0 80 64"]')).toBeNull();
    rerender(<Chip title="A" description="d" image="default" />);
    expect(container.querySelector('svg[viewBox="0 0 80 64"]')).not.toBeNull();
  });
});
