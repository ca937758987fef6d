import { afterFirstPaint } from './after-first-paint';

/** Marks the templates that hold the page's deferred scripts (see AfterFirstPaint.astro). */
export const deferredScriptsAttribute = 'data-after-first-paint';

/**
 * Brings the scripts held in `<template data-after-first-paint>` to life, with the module
 * preloads held beside them: each is copied into the document, where the browser fetches and
 * runs it like any module script (or preload). Inside a template the browser neither fetches nor
 * runs them, and its preload scanner does not look there.
 */
export function startDeferredScripts(document: Document): void {
  for (const template of document.querySelectorAll<HTMLTemplateElement>(
    `template[${deferredScriptsAttribute}]`,
  )) {
    for (const held of template.content.querySelectorAll('link, script')) {
      const started = document.createElement(held.localName);
      for (const { name, value } of held.attributes) started.setAttribute(name, value);
      started.textContent = held.textContent;
      document.head.append(started);
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
