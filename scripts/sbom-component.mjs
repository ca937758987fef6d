/**
 * The SBOM with its top-level component named as package.json names the product. `npm sbom`
 * takes that name from the folder the repository was cloned into (a worktree's, a CI job's), so
 * the same commit would otherwise describe a different product on every machine.
 *
 * @template {{ metadata?: { component?: Record<string, unknown> } }} Sbom
 * @param {Sbom} sbom CycloneDX JSON as `npm sbom` writes it
 * @param {{ name: string, version: string }} manifest package.json
 * @returns {Sbom}
 */
export function namedAfterPackage(sbom, manifest) {
  const component = sbom.metadata?.component;
  if (component === undefined) return sbom;
  return {
    ...sbom,
    metadata: {
      ...sbom.metadata,
      component: { ...component, name: manifest.name, version: manifest.version },
    },
  };
}
