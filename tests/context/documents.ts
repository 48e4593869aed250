import type { SourceDocument } from "../../src/context/types.js";

/** A small set of funding-application documents, as a company would hand them in. */

const PROFILE_PAGE_1 = [
  "Nordlicht Robotics GmbH",
  "",
  "Nordlicht Robotics builds autonomous inspection drones for offshore wind farms. The company",
  "was founded in 2019 by two engineers from the maritime industry and employs 24 people.",
].join("\n");

const PROFILE_PAGE_2 = [
  "Registered office",
  "",
  "The registered office and headquarters address is Überseeallee 10, 20457 Hamburg, Germany.",
  "The company is entered in the commercial register of the Hamburg district court.",
].join("\n");

const PROFILE_PAGE_3 = [
  "Finances",
  "",
  "Revenue in 2023 was 3.1 million euros, with a positive operating result. The planned",
  "investment volume of the project is 1.2 million euros over two years.",
].join("\n");

export const COMPANY_PROFILE: SourceDocument = {
  name: "company-profile.md",
  text: [PROFILE_PAGE_1, PROFILE_PAGE_2, PROFILE_PAGE_3].join("\n\f"),
};

export const PROJECT_DESCRIPTION: SourceDocument = {
  name: "project.md",
  text: [
    "# Project summary",
    "",
    "The project develops a machine-learning model that detects blade erosion on wind turbines",
    "from drone imagery, replacing manual rope-access inspections.",
    "",
    "## Innovation",
    "",
    "No commercial system today combines thermal and visual imagery for erosion detection. Our",
    "approach uses a novel self-supervised training method to address the lack of labelled data.",
    "",
    "## Market",
    "",
    "The market for offshore wind maintenance in Europe grows by twelve percent a year. Main",
    "competitors are rope-access service companies.",
  ].join("\n"),
};

export const MEETING_NOTES: SourceDocument = {
  name: "notes.txt",
  text: [
    "Page 1",
    "Kick-off meeting with the partners at the Hamburg harbour. Agenda: timeline and work packages.",
    "",
    "Page 2",
    "Work package 2 delivers the labelled image data set by month six.",
  ].join("\n"),
};

export const DOCUMENTS: SourceDocument[] = [COMPANY_PROFILE, PROJECT_DESCRIPTION, MEETING_NOTES];
