/** Words too common to say what a passage is about, or criterion queries would match every chunk. */
const ENGLISH =
  "a about above after all also an and any are as at be been being between both but by can " +
  "could did do does each for from had has have how if in into is it its may more most must " +
  "no not of on or other our should so such than that the their them then there these they " +
  "this those to was we were what when where which while who whom why will with would you your";

const GERMAN =
  "aber als am an auch auf aus bei bis das dass dem den der des die ein eine einem einen einer " +
  "eines es für hat ist im in mit nach nicht oder sich sie sind über um und von vom wie wird " +
  "zu zum zur";

export const STOPWORDS: ReadonlySet<string> = new Set(`${ENGLISH} ${GERMAN}`.split(" "));
