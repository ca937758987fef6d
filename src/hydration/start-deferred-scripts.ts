import { afterFirstPaint } from './after-first-paint';

/** Marks the templates that hold the page's deferred scripts (see AfterFirstPaint.astro). */
export const deferredScriptsAttribute = 'data-after-first-paint';

/**
 * Brings the scripts held in `<template data-after-first-paint>` to life: each is copied into
 * the document, where the browser fetches and runs it like any module script. Inside a template
 * the browser neither fetches nor runs them, and its preload scanner does not look there.
 */
export function startDeferredScripts(document: Document): void {
  for (const template of document.querySelectorAll<HTMLTemplateElement>(
    `template[${deferredScriptsAttribute}]`,
  )) {
    for (const held of template.content.querySelectorAll('script')) {
      const script = document.createElement('script');
      for (const { name, value } of held.attributes) script.setAttribute(name, value);
      script.textContent = held.textContent;
      document.head.append(script);
    }
    template.remove();
  }
}

/** Starts the deferred scripts once the page has painted. */
export function startDeferredScriptsAfterFirstPaint(document: Document): void {
  afterFirstPaint(() => {
    startDeferredScripts(document);
  });
}
