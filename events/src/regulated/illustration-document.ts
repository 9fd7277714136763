/**
 * The uploader an illustration PDF names: the platform made it when the deal was agreed, not a person
 * (docs/behaviour/regulated-figures.md, "The illustration of an agreed deal"). Not an account: no name is looked up.
 */
export const ILLUSTRATION_UPLOADER_ID = 'system:illustration';
export const ILLUSTRATION_UPLOADER_NAME = 'Made by the platform';
