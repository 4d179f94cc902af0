/// The catalog the demo seeds into its database on first start: real composers, works,
/// recordings and movements, so every screen shows believable content.
struct SeedComposer: Sendable {
    let slug: String  // url-safe, e.g. "mozart"
    let name: String  // "Wolfgang Amadeus Mozart"
    let born: Int
    let died: Int
    let nationality: String  // "Austrian"
    let period: String  // "Classical", "Baroque", "Romantic", "Late Romantic", "20th century", ...
    let popularity: Int  // 1 = most popular; unique 1...N, used to order the home carousel
    let biography: [String]  // 2 or 3 factual paragraphs, 2-4 sentences each, in your own words
    let works: [SeedWork]
}

/// One composition of a seeded composer; it becomes a work page and groups the recordings
/// that can be browsed and played for it.
struct SeedWork: Sendable {
    let slug: String  // url-safe and unique within the composer, e.g. "eine-kleine-nachtmusik"
    let title: String  // "Serenade No. 13 \"Eine kleine Nachtmusik\""
    let catalogue: String?  // "K. 525", "BWV 1007", "Op. 27 No. 2" (nil if none)
    let key: String?  // "G major" (nil if not applicable)
    let year: Int  // year of composition (completion)
    let genre: String  // "Symphony", "Piano sonata", "Opera", "Concerto", "Chamber", "Choral", "Orchestral", "Solo instrumental", ...
    let recordings: [SeedRecording]
}

/// A specific recorded performance of a work, so the demo can show several interpretations
/// of the same piece with their performers, year and label.
struct SeedRecording: Sendable {
    let performers: String  // "Wiener Philharmoniker, Karl Böhm"
    let year: Int  // recording year
    let label: String  // "Deutsche Grammophon"
    let tracks: [SeedTrack]  // the movements (or acts/numbers for operas: pick 3-5 well known numbers)
}

/// A single track of a recording (a movement or a number), giving track lists and
/// durations for the player and recording screens.
struct SeedTrack: Sendable {
    let title: String  // "I. Allegro"
    let seconds: Int  // duration in seconds, realistic for that recording
}

/// Namespace holding the static seed data; the demo reads it once to populate an empty database.
enum CatalogSeed {
    static let composers: [SeedComposer] = [
        SeedComposer(
            slug: "bach",
            name: "Johann Sebastian Bach",
            born: 1685,
            died: 1750,
            nationality: "German",
            period: "Baroque",
            popularity: 3,
            biography: [
                "Johann Sebastian Bach was born in Eisenach into a family that had produced professional musicians for generations, and he had lost both parents by the age of ten. He was taken in by his elder brother Johann Christoph, an organist in Ohrdruf, and later held organist posts in Arnstadt and Mühlhausen before joining the court at Weimar.",
                "From 1717 to 1723 he directed the music at the court of Köthen, a period that produced much of his instrumental music, including the Brandenburg Concertos and the suites for solo cello. In 1723 he became Thomaskantor in Leipzig, responsible for the music of the city's principal churches, and he kept that post for the rest of his life, writing cantatas, passions and the Mass in B minor.",
                "In his own time Bach was admired chiefly as an organist, and his style was considered old-fashioned by the time he died. Interest in his music grew steadily in the nineteenth century, helped by Felix Mendelssohn's performance of the St Matthew Passion in 1829, and his counterpoint is now a cornerstone of musical training.",
            ],
            works: [
                SeedWork(
                    slug: "cello-suite-1",
                    title: "Cello Suite No. 1",
                    catalogue: "BWV 1007",
                    key: "G major",
                    year: 1720,
                    genre: "Solo instrumental",
                    recordings: [
                        SeedRecording(
                            performers: "Pablo Casals",
                            year: 1938,
                            label: "EMI",
                            tracks: [
                                SeedTrack(title: "I. Prélude", seconds: 143),
                                SeedTrack(title: "II. Allemande", seconds: 242),
                                SeedTrack(title: "III. Courante", seconds: 151),
                                SeedTrack(title: "IV. Sarabande", seconds: 141),
                                SeedTrack(title: "V. Menuet I & II", seconds: 198),
                                SeedTrack(title: "VI. Gigue", seconds: 105),
                            ]
                        ),
                        SeedRecording(
                            performers: "Yo-Yo Ma",
                            year: 1983,
                            label: "CBS Masterworks",
                            tracks: [
                                SeedTrack(title: "I. Prélude", seconds: 153),
                                SeedTrack(title: "II. Allemande", seconds: 251),
                                SeedTrack(title: "III. Courante", seconds: 163),
                                SeedTrack(title: "IV. Sarabande", seconds: 172),
                                SeedTrack(title: "V. Menuet I & II", seconds: 192),
                                SeedTrack(title: "VI. Gigue", seconds: 106),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "brandenburg-concerto-3",
                    title: "Brandenburg Concerto No. 3",
                    catalogue: "BWV 1048",
                    key: "G major",
                    year: 1721,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "The English Concert, Trevor Pinnock",
                            year: 1982,
                            label: "Archiv Produktion",
                            tracks: [
                                SeedTrack(title: "I. Allegro", seconds: 348),
                                SeedTrack(title: "II. Adagio", seconds: 39),
                                SeedTrack(title: "III. Allegro", seconds: 281),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "mass-in-b-minor",
                    title: "Mass in B minor",
                    catalogue: "BWV 232",
                    key: "B minor",
                    year: 1749,
                    genre: "Choral",
                    recordings: [
                        SeedRecording(
                            performers: "Monteverdi Choir, English Baroque Soloists, John Eliot Gardiner",
                            year: 1985,
                            label: "Archiv Produktion",
                            tracks: [
                                SeedTrack(title: "Kyrie eleison", seconds: 532),
                                SeedTrack(title: "Gloria in excelsis Deo", seconds: 109),
                                SeedTrack(title: "Crucifixus", seconds: 178),
                                SeedTrack(title: "Agnus Dei", seconds: 284),
                                SeedTrack(title: "Dona nobis pacem", seconds: 161),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "toccata-and-fugue-in-d-minor",
                    title: "Toccata and Fugue",
                    catalogue: "BWV 565",
                    key: "D minor",
                    year: 1704,
                    genre: "Organ",
                    recordings: [
                        SeedRecording(
                            performers: "Karl Richter",
                            year: 1964,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Toccata", seconds: 167),
                                SeedTrack(title: "II. Fugue", seconds: 376),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "concerto-for-two-violins",
                    title: "Concerto for Two Violins",
                    catalogue: "BWV 1043",
                    key: "D minor",
                    year: 1730,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Hilary Hahn, Margaret Batjer, Los Angeles Chamber Orchestra, Jeffrey Kahane",
                            year: 2002,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Vivace", seconds: 229),
                                SeedTrack(title: "II. Largo ma non tanto", seconds: 398),
                                SeedTrack(title: "III. Allegro", seconds: 292),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "vivaldi",
            name: "Antonio Vivaldi",
            born: 1678,
            died: 1741,
            nationality: "Italian",
            period: "Baroque",
            popularity: 6,
            biography: [
                "Antonio Vivaldi was born in Venice, the son of a violinist at St Mark's Basilica, and was ordained a priest in 1703. His red hair earned him the nickname il Prete Rosso, the Red Priest, but a chronic chest complaint soon released him from celebrating Mass.",
                "For most of his career he worked with the Ospedale della Pietà, a Venetian foundling home whose all-female orchestra and choir drew visitors from across Europe. He wrote hundreds of concertos for its musicians, and printed collections such as L'estro armonico and Il cimento dell'armonia e dell'inventione carried his style far beyond Italy; he was also a busy composer and impresario of opera.",
                "His fortunes declined in his last years, and he died poor in Vienna, where he had travelled in the hope of imperial patronage. His music was largely neglected until the twentieth century, when newly found manuscripts sparked a revival that made The Four Seasons one of the most recorded works of all.",
            ],
            works: [
                SeedWork(
                    slug: "spring",
                    title: "Violin Concerto \"Spring\" (La primavera)",
                    catalogue: "RV 269",
                    key: "E major",
                    year: 1725,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "I Musici, Felix Ayo",
                            year: 1959,
                            label: "Philips",
                            tracks: [
                                SeedTrack(title: "I. Allegro", seconds: 209),
                                SeedTrack(title: "II. Largo e pianissimo sempre", seconds: 161),
                                SeedTrack(title: "III. Allegro (Danza pastorale)", seconds: 249),
                            ]
                        ),
                        SeedRecording(
                            performers: "Nigel Kennedy, English Chamber Orchestra",
                            year: 1989,
                            label: "EMI",
                            tracks: [
                                SeedTrack(title: "I. Allegro", seconds: 206),
                                SeedTrack(title: "II. Largo e pianissimo sempre", seconds: 153),
                                SeedTrack(title: "III. Allegro (Danza pastorale)", seconds: 238),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "summer",
                    title: "Violin Concerto \"Summer\" (L'estate)",
                    catalogue: "RV 315",
                    key: "G minor",
                    year: 1725,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Enrico Onofri, Il Giardino Armonico, Giovanni Antonini",
                            year: 1993,
                            label: "Teldec",
                            tracks: [
                                SeedTrack(title: "I. Allegro non molto", seconds: 292),
                                SeedTrack(title: "II. Adagio e piano – Presto e forte", seconds: 121),
                                SeedTrack(title: "III. Presto", seconds: 154),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "winter",
                    title: "Violin Concerto \"Winter\" (L'inverno)",
                    catalogue: "RV 297",
                    key: "F minor",
                    year: 1725,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Anne-Sophie Mutter, Trondheim Soloists",
                            year: 1999,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro non molto", seconds: 221),
                                SeedTrack(title: "II. Largo", seconds: 132),
                                SeedTrack(title: "III. Allegro", seconds: 194),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "gloria",
                    title: "Gloria",
                    catalogue: "RV 589",
                    key: "D major",
                    year: 1715,
                    genre: "Choral",
                    recordings: [
                        SeedRecording(
                            performers: "The English Concert and Choir, Trevor Pinnock",
                            year: 1989,
                            label: "Archiv Produktion",
                            tracks: [
                                SeedTrack(title: "Gloria in excelsis Deo", seconds: 138),
                                SeedTrack(title: "Et in terra pax hominibus", seconds: 331),
                                SeedTrack(title: "Laudamus te", seconds: 139),
                                SeedTrack(title: "Domine Deus, Rex coelestis", seconds: 208),
                                SeedTrack(title: "Cum Sancto Spiritu", seconds: 167),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "estro-armonico-6",
                    title: "Violin Concerto, L'estro armonico No. 6",
                    catalogue: "Op. 3 No. 6, RV 356",
                    key: "A minor",
                    year: 1711,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Academy of Ancient Music, Christopher Hogwood",
                            year: 1980,
                            label: "L'Oiseau-Lyre",
                            tracks: [
                                SeedTrack(title: "I. Allegro", seconds: 188),
                                SeedTrack(title: "II. Largo", seconds: 141),
                                SeedTrack(title: "III. Presto", seconds: 149),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "handel",
            name: "George Frideric Handel",
            born: 1685,
            died: 1759,
            nationality: "German-British",
            period: "Baroque",
            popularity: 11,
            biography: [
                "George Frideric Handel was born in Halle, in Saxony, and briefly studied law before committing himself to music. He gained early experience in the opera house at Hamburg and then spent several years in Italy, where he mastered the Italian operatic and cantata style.",
                "He settled in London in 1712 and became a naturalised British subject in 1727. For some twenty years he composed and produced Italian operas such as Rinaldo and Giulio Cesare, while also writing music for royal occasions, including the Water Music and the anthems for the coronation of George II.",
                "As London's appetite for Italian opera faded, Handel turned to oratorio in English, a genre he largely defined; Messiah was first heard in Dublin in 1742. Blind in his final years, he still directed performances of his works, and he was buried in Westminster Abbey.",
            ],
            works: [
                SeedWork(
                    slug: "messiah",
                    title: "Messiah",
                    catalogue: "HWV 56",
                    key: nil,
                    year: 1741,
                    genre: "Oratorio",
                    recordings: [
                        SeedRecording(
                            performers: "Monteverdi Choir, English Baroque Soloists, John Eliot Gardiner",
                            year: 1982,
                            label: "Philips",
                            tracks: [
                                SeedTrack(title: "Sinfony", seconds: 182),
                                SeedTrack(title: "Comfort ye, my people", seconds: 184),
                                SeedTrack(title: "For unto us a child is born", seconds: 232),
                                SeedTrack(title: "Hallelujah", seconds: 221),
                                SeedTrack(title: "I know that my Redeemer liveth", seconds: 358),
                            ]
                        ),
                        SeedRecording(
                            performers: "The English Concert and Choir, Trevor Pinnock",
                            year: 1988,
                            label: "Archiv Produktion",
                            tracks: [
                                SeedTrack(title: "Sinfony", seconds: 190),
                                SeedTrack(title: "Comfort ye, my people", seconds: 192),
                                SeedTrack(title: "For unto us a child is born", seconds: 228),
                                SeedTrack(title: "Hallelujah", seconds: 219),
                                SeedTrack(title: "I know that my Redeemer liveth", seconds: 372),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "water-music-suite-2",
                    title: "Water Music, Suite No. 2",
                    catalogue: "HWV 349",
                    key: "D major",
                    year: 1717,
                    genre: "Orchestral",
                    recordings: [
                        SeedRecording(
                            performers: "The English Concert, Trevor Pinnock",
                            year: 1983,
                            label: "Archiv Produktion",
                            tracks: [
                                SeedTrack(title: "I. Allegro", seconds: 127),
                                SeedTrack(title: "II. Alla Hornpipe", seconds: 204),
                                SeedTrack(title: "III. Minuet", seconds: 106),
                                SeedTrack(title: "IV. Lentement", seconds: 102),
                                SeedTrack(title: "V. Bourrée", seconds: 52),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "music-for-the-royal-fireworks",
                    title: "Music for the Royal Fireworks",
                    catalogue: "HWV 351",
                    key: "D major",
                    year: 1749,
                    genre: "Orchestral",
                    recordings: [
                        SeedRecording(
                            performers: "Le Concert Spirituel, Hervé Niquet",
                            year: 2002,
                            label: "Glossa",
                            tracks: [
                                SeedTrack(title: "I. Ouverture", seconds: 484),
                                SeedTrack(title: "II. Bourrée", seconds: 91),
                                SeedTrack(title: "III. La Paix", seconds: 207),
                                SeedTrack(title: "IV. La Réjouissance", seconds: 149),
                                SeedTrack(title: "V. Menuets I & II", seconds: 213),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "giulio-cesare",
                    title: "Giulio Cesare in Egitto",
                    catalogue: "HWV 17",
                    key: nil,
                    year: 1724,
                    genre: "Opera",
                    recordings: [
                        SeedRecording(
                            performers: "Les Musiciens du Louvre, Marc Minkowski",
                            year: 2002,
                            label: "Archiv Produktion",
                            tracks: [
                                SeedTrack(title: "Va tacito e nascosto", seconds: 446),
                                SeedTrack(title: "V'adoro, pupille", seconds: 334),
                                SeedTrack(title: "Piangerò la sorte mia", seconds: 422),
                                SeedTrack(title: "Da tempeste il legno infranto", seconds: 318),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "zadok-the-priest",
                    title: "Zadok the Priest (Coronation Anthem No. 1)",
                    catalogue: "HWV 258",
                    key: "D major",
                    year: 1727,
                    genre: "Choral",
                    recordings: [
                        SeedRecording(
                            performers: "Choir of The King's Consort, The King's Consort, Robert King",
                            year: 1990,
                            label: "Hyperion",
                            tracks: [
                                SeedTrack(title: "Zadok the priest", seconds: 192),
                                SeedTrack(title: "And all the people rejoic'd", seconds: 58),
                                SeedTrack(title: "God save the King", seconds: 102),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "haydn",
            name: "Joseph Haydn",
            born: 1732,
            died: 1809,
            nationality: "Austrian",
            period: "Classical",
            popularity: 13,
            biography: [
                "Joseph Haydn was born in the Austrian village of Rohrau, the son of a wheelwright, and sang as a choirboy at St Stephen's Cathedral in Vienna. When his voice broke he supported himself with freelance playing and teaching while largely teaching himself composition.",
                "In 1761 he entered the service of the Esterházy princes, and he stayed with the family for almost thirty years, running the court orchestra at their remote palace. That steady position allowed him to experiment, and he did more than anyone to establish the symphony and the string quartet as central forms.",
                "Two long visits to London in the 1790s brought public triumph and his last twelve symphonies. Back in Vienna he wrote the oratorios The Creation and The Seasons; by then he was widely seen as Europe's foremost composer, a friend of Mozart and, for a time, a teacher of the young Beethoven.",
            ],
            works: [
                SeedWork(
                    slug: "symphony-94-surprise",
                    title: "Symphony No. 94 \"Surprise\"",
                    catalogue: "Hob. I:94",
                    key: "G major",
                    year: 1791,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "Concertgebouw Orchestra, Sir Colin Davis",
                            year: 1981,
                            label: "Philips",
                            tracks: [
                                SeedTrack(title: "I. Adagio – Vivace assai", seconds: 507),
                                SeedTrack(title: "II. Andante", seconds: 391),
                                SeedTrack(title: "III. Menuet: Allegro molto", seconds: 278),
                                SeedTrack(title: "IV. Finale: Allegro di molto", seconds: 238),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "symphony-104-london",
                    title: "Symphony No. 104 \"London\"",
                    catalogue: "Hob. I:104",
                    key: "D major",
                    year: 1795,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "London Philharmonic Orchestra, Eugen Jochum",
                            year: 1973,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Adagio – Allegro", seconds: 501),
                                SeedTrack(title: "II. Andante", seconds: 472),
                                SeedTrack(title: "III. Menuet: Allegro", seconds: 287),
                                SeedTrack(title: "IV. Finale: Spiritoso", seconds: 303),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "string-quartet-op-76-3-emperor",
                    title: "String Quartet \"Emperor\"",
                    catalogue: "Op. 76 No. 3, Hob. III:77",
                    key: "C major",
                    year: 1797,
                    genre: "Chamber",
                    recordings: [
                        SeedRecording(
                            performers: "Takács Quartet",
                            year: 1989,
                            label: "Decca",
                            tracks: [
                                SeedTrack(title: "I. Allegro", seconds: 422),
                                SeedTrack(title: "II. Poco adagio, cantabile", seconds: 458),
                                SeedTrack(title: "III. Menuetto: Allegro", seconds: 267),
                                SeedTrack(title: "IV. Finale: Presto", seconds: 331),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "trumpet-concerto",
                    title: "Trumpet Concerto",
                    catalogue: "Hob. VIIe:1",
                    key: "E-flat major",
                    year: 1796,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Wynton Marsalis, National Philharmonic Orchestra, Raymond Leppard",
                            year: 1982,
                            label: "CBS Masterworks",
                            tracks: [
                                SeedTrack(title: "I. Allegro", seconds: 391),
                                SeedTrack(title: "II. Andante", seconds: 221),
                                SeedTrack(title: "III. Finale: Allegro", seconds: 269),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "the-creation",
                    title: "The Creation (Die Schöpfung)",
                    catalogue: "Hob. XXI:2",
                    key: nil,
                    year: 1798,
                    genre: "Oratorio",
                    recordings: [
                        SeedRecording(
                            performers: "Wiener Singverein, Berliner Philharmoniker, Herbert von Karajan",
                            year: 1969,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "Die Vorstellung des Chaos", seconds: 411),
                                SeedTrack(title: "Im Anfange schuf Gott Himmel und Erde", seconds: 192),
                                SeedTrack(title: "Die Himmel erzählen die Ehre Gottes", seconds: 254),
                                SeedTrack(title: "Nun beut die Flur das frische Grün", seconds: 246),
                                SeedTrack(title: "Mit Würd' und Hoheit angetan", seconds: 217),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "mozart",
            name: "Wolfgang Amadeus Mozart",
            born: 1756,
            died: 1791,
            nationality: "Austrian",
            period: "Classical",
            popularity: 1,
            biography: [
                "Wolfgang Amadeus Mozart was born in Salzburg and displayed remarkable musical gifts in early childhood. His father Leopold, a violinist in the archbishop's service, took him and his elder sister Nannerl on long tours of European courts, where the boy performed on keyboard and violin and wrote his first symphonies.",
                "After unhappy years as a court musician to the Archbishop of Salzburg, he settled in Vienna in 1781 as an independent pianist, teacher and composer. There he produced most of his piano concertos, the operas The Marriage of Figaro, Don Giovanni and The Magic Flute, and his final three symphonies, all written in the summer of 1788.",
                "His earnings rose and fell, and he died in Vienna at the age of 35 with his Requiem unfinished; his pupil Franz Xaver Süssmayr completed it. He left more than 600 works covering almost every genre of his day.",
            ],
            works: [
                SeedWork(
                    slug: "eine-kleine-nachtmusik",
                    title: "Serenade No. 13 \"Eine kleine Nachtmusik\"",
                    catalogue: "K. 525",
                    key: "G major",
                    year: 1787,
                    genre: "Orchestral",
                    recordings: [
                        SeedRecording(
                            performers: "Academy of St Martin in the Fields, Sir Neville Marriner",
                            year: 1985,
                            label: "Philips",
                            tracks: [
                                SeedTrack(title: "I. Allegro", seconds: 341),
                                SeedTrack(title: "II. Romanze: Andante", seconds: 348),
                                SeedTrack(title: "III. Menuetto: Allegretto", seconds: 129),
                                SeedTrack(title: "IV. Rondo: Allegro", seconds: 187),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "symphony-40",
                    title: "Symphony No. 40",
                    catalogue: "K. 550",
                    key: "G minor",
                    year: 1788,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "Wiener Philharmoniker, Karl Böhm",
                            year: 1976,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Molto allegro", seconds: 502),
                                SeedTrack(title: "II. Andante", seconds: 521),
                                SeedTrack(title: "III. Menuetto: Allegretto", seconds: 291),
                                SeedTrack(title: "IV. Allegro assai", seconds: 298),
                            ]
                        ),
                        SeedRecording(
                            performers: "English Baroque Soloists, John Eliot Gardiner",
                            year: 1991,
                            label: "Philips",
                            tracks: [
                                SeedTrack(title: "I. Molto allegro", seconds: 441),
                                SeedTrack(title: "II. Andante", seconds: 458),
                                SeedTrack(title: "III. Menuetto: Allegretto", seconds: 252),
                                SeedTrack(title: "IV. Allegro assai", seconds: 407),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "piano-concerto-21",
                    title: "Piano Concerto No. 21",
                    catalogue: "K. 467",
                    key: "C major",
                    year: 1785,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Géza Anda, Camerata Academica des Mozarteums Salzburg",
                            year: 1961,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro maestoso", seconds: 828),
                                SeedTrack(title: "II. Andante", seconds: 418),
                                SeedTrack(title: "III. Allegro vivace assai", seconds: 402),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "requiem",
                    title: "Requiem",
                    catalogue: "K. 626",
                    key: "D minor",
                    year: 1791,
                    genre: "Choral",
                    recordings: [
                        SeedRecording(
                            performers: "Wiener Staatsopernchor, Wiener Philharmoniker, Karl Böhm",
                            year: 1971,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "Introitus: Requiem aeternam", seconds: 352),
                                SeedTrack(title: "Dies irae", seconds: 123),
                                SeedTrack(title: "Tuba mirum", seconds: 251),
                                SeedTrack(title: "Confutatis", seconds: 169),
                                SeedTrack(title: "Lacrimosa", seconds: 221),
                            ]
                        ),
                        SeedRecording(
                            performers: "Monteverdi Choir, English Baroque Soloists, John Eliot Gardiner",
                            year: 1986,
                            label: "Philips",
                            tracks: [
                                SeedTrack(title: "Introitus: Requiem aeternam", seconds: 271),
                                SeedTrack(title: "Dies irae", seconds: 101),
                                SeedTrack(title: "Tuba mirum", seconds: 198),
                                SeedTrack(title: "Confutatis", seconds: 151),
                                SeedTrack(title: "Lacrimosa", seconds: 182),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "die-zauberflote",
                    title: "Die Zauberflöte (The Magic Flute)",
                    catalogue: "K. 620",
                    key: nil,
                    year: 1791,
                    genre: "Opera",
                    recordings: [
                        SeedRecording(
                            performers: "Berliner Philharmoniker, Karl Böhm",
                            year: 1964,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "Der Vogelfänger bin ich ja", seconds: 161),
                                SeedTrack(title: "Dies Bildnis ist bezaubernd schön", seconds: 238),
                                SeedTrack(title: "Der Hölle Rache kocht in meinem Herzen", seconds: 178),
                                SeedTrack(title: "Pa-pa-pa-Papagena", seconds: 158),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "beethoven",
            name: "Ludwig van Beethoven",
            born: 1770,
            died: 1827,
            nationality: "German",
            period: "Classical",
            popularity: 2,
            biography: [
                "Ludwig van Beethoven was born in Bonn and worked as a court musician there in his teens. In 1792 he moved to Vienna to take lessons from Haydn and quickly became known as a powerful pianist and improviser.",
                "By his late twenties he was going deaf, a crisis he confronted in a private letter of 1802 known as the Heiligenstadt Testament. He kept composing, and the works of his middle years, among them the Eroica and Fifth Symphonies and the Emperor Concerto, greatly enlarged the scale and drama of Classical forms.",
                "In his final decade, when he could hardly hear at all, he completed the Ninth Symphony, the Missa solemnis and his late piano sonatas and string quartets. He died in Vienna in 1827, and his example shaped the ambitions of composers throughout the following century.",
            ],
            works: [
                SeedWork(
                    slug: "symphony-5",
                    title: "Symphony No. 5",
                    catalogue: "Op. 67",
                    key: "C minor",
                    year: 1808,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "Wiener Philharmoniker, Carlos Kleiber",
                            year: 1974,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro con brio", seconds: 442),
                                SeedTrack(title: "II. Andante con moto", seconds: 592),
                                SeedTrack(title: "III. Scherzo: Allegro", seconds: 308),
                                SeedTrack(title: "IV. Allegro", seconds: 650),
                            ]
                        ),
                        SeedRecording(
                            performers: "Berliner Philharmoniker, Herbert von Karajan",
                            year: 1962,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro con brio", seconds: 431),
                                SeedTrack(title: "II. Andante con moto", seconds: 621),
                                SeedTrack(title: "III. Scherzo: Allegro", seconds: 298),
                                SeedTrack(title: "IV. Allegro", seconds: 522),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "symphony-9-choral",
                    title: "Symphony No. 9 \"Choral\"",
                    catalogue: "Op. 125",
                    key: "D minor",
                    year: 1824,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "Bayreuth Festival Orchestra and Chorus, Wilhelm Furtwängler",
                            year: 1951,
                            label: "EMI",
                            tracks: [
                                SeedTrack(title: "I. Allegro ma non troppo, un poco maestoso", seconds: 1068),
                                SeedTrack(title: "II. Molto vivace", seconds: 712),
                                SeedTrack(title: "III. Adagio molto e cantabile", seconds: 1171),
                                SeedTrack(title: "IV. Presto – Allegro assai", seconds: 1492),
                            ]
                        ),
                        SeedRecording(
                            performers: "Berliner Philharmoniker, Herbert von Karajan",
                            year: 1962,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro ma non troppo, un poco maestoso", seconds: 928),
                                SeedTrack(title: "II. Molto vivace", seconds: 658),
                                SeedTrack(title: "III. Adagio molto e cantabile", seconds: 996),
                                SeedTrack(title: "IV. Presto – Allegro assai", seconds: 1447),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "moonlight-sonata",
                    title: "Piano Sonata No. 14 \"Moonlight\"",
                    catalogue: "Op. 27 No. 2",
                    key: "C-sharp minor",
                    year: 1801,
                    genre: "Piano sonata",
                    recordings: [
                        SeedRecording(
                            performers: "Wilhelm Kempff",
                            year: 1965,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Adagio sostenuto", seconds: 321),
                                SeedTrack(title: "II. Allegretto", seconds: 131),
                                SeedTrack(title: "III. Presto agitato", seconds: 398),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "piano-concerto-5-emperor",
                    title: "Piano Concerto No. 5 \"Emperor\"",
                    catalogue: "Op. 73",
                    key: "E-flat major",
                    year: 1809,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Emil Gilels, The Cleveland Orchestra, George Szell",
                            year: 1968,
                            label: "EMI",
                            tracks: [
                                SeedTrack(title: "I. Allegro", seconds: 1234),
                                SeedTrack(title: "II. Adagio un poco mosso", seconds: 512),
                                SeedTrack(title: "III. Rondo: Allegro", seconds: 618),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "violin-concerto",
                    title: "Violin Concerto",
                    catalogue: "Op. 61",
                    key: "D major",
                    year: 1806,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Anne-Sophie Mutter, Berliner Philharmoniker, Herbert von Karajan",
                            year: 1979,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro ma non troppo", seconds: 1491),
                                SeedTrack(title: "II. Larghetto", seconds: 639),
                                SeedTrack(title: "III. Rondo: Allegro", seconds: 612),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "schubert",
            name: "Franz Schubert",
            born: 1797,
            died: 1828,
            nationality: "Austrian",
            period: "Romantic",
            popularity: 10,
            biography: [
                "Franz Schubert was born in a suburb of Vienna, the son of a schoolmaster, and was educated as a choirboy of the imperial court chapel, where he took lessons from Antonio Salieri. He taught for a while at his father's school before giving his time entirely to composition.",
                "He never held a salaried musical post and depended on a loyal circle of friends, who hosted informal evenings of his music known as Schubertiades. He wrote more than 600 songs that transformed the German Lied, alongside symphonies, chamber music, masses and piano sonatas.",
                "Schubert died in Vienna at 31 after a long period of illness, and much of his larger music reached the public only decades later. The Great C major Symphony was first performed under Mendelssohn in 1839, and the Unfinished Symphony waited until 1865 for its premiere.",
            ],
            works: [
                SeedWork(
                    slug: "symphony-8-unfinished",
                    title: "Symphony No. 8 \"Unfinished\"",
                    catalogue: "D. 759",
                    key: "B minor",
                    year: 1822,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "Wiener Philharmoniker, Carlos Kleiber",
                            year: 1978,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro moderato", seconds: 782),
                                SeedTrack(title: "II. Andante con moto", seconds: 668),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "trout-quintet",
                    title: "Piano Quintet \"Trout\"",
                    catalogue: "D. 667",
                    key: "A major",
                    year: 1819,
                    genre: "Chamber",
                    recordings: [
                        SeedRecording(
                            performers: "Alfred Brendel, members of the Cleveland Quartet, James Van Demark",
                            year: 1977,
                            label: "Philips",
                            tracks: [
                                SeedTrack(title: "I. Allegro vivace", seconds: 771),
                                SeedTrack(title: "II. Andante", seconds: 422),
                                SeedTrack(title: "III. Scherzo: Presto", seconds: 248),
                                SeedTrack(title: "IV. Tema con variazioni: Andantino", seconds: 469),
                                SeedTrack(title: "V. Finale: Allegro giusto", seconds: 399),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "string-quintet",
                    title: "String Quintet",
                    catalogue: "D. 956",
                    key: "C major",
                    year: 1828,
                    genre: "Chamber",
                    recordings: [
                        SeedRecording(
                            performers: "Emerson String Quartet, Mstislav Rostropovich",
                            year: 1990,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro ma non troppo", seconds: 1188),
                                SeedTrack(title: "II. Adagio", seconds: 871),
                                SeedTrack(title: "III. Scherzo: Presto – Trio: Andante sostenuto", seconds: 609),
                                SeedTrack(title: "IV. Allegretto", seconds: 582),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "impromptus-d-899",
                    title: "Four Impromptus",
                    catalogue: "D. 899",
                    key: nil,
                    year: 1827,
                    genre: "Solo instrumental",
                    recordings: [
                        SeedRecording(
                            performers: "Krystian Zimerman",
                            year: 1990,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "No. 1 in C minor: Allegro molto moderato", seconds: 611),
                                SeedTrack(title: "No. 2 in E-flat major: Allegro", seconds: 278),
                                SeedTrack(title: "No. 3 in G-flat major: Andante", seconds: 381),
                                SeedTrack(title: "No. 4 in A-flat major: Allegretto", seconds: 462),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "winterreise",
                    title: "Winterreise",
                    catalogue: "D. 911",
                    key: nil,
                    year: 1827,
                    genre: "Song cycle",
                    recordings: [
                        SeedRecording(
                            performers: "Dietrich Fischer-Dieskau, Gerald Moore",
                            year: 1971,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "1. Gute Nacht", seconds: 321),
                                SeedTrack(title: "5. Der Lindenbaum", seconds: 272),
                                SeedTrack(title: "11. Frühlingstraum", seconds: 249),
                                SeedTrack(title: "20. Der Wegweiser", seconds: 241),
                                SeedTrack(title: "24. Der Leiermann", seconds: 208),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "chopin",
            name: "Frédéric Chopin",
            born: 1810,
            died: 1849,
            nationality: "Polish",
            period: "Romantic",
            popularity: 4,
            biography: [
                "Frédéric Chopin was born at Żelazowa Wola near Warsaw to a French father and a Polish mother. He trained at the Warsaw Conservatory and had written both of his piano concertos before he left Poland in 1830.",
                "Within weeks of his departure the November Uprising against Russian rule began, and he never went home again. He made his life in Paris, supporting himself mainly by teaching and by playing in private salons rather than in large public concerts.",
                "Nearly everything he wrote is for solo piano, and he brought new depth to the nocturne, ballade, étude, mazurka and polonaise. His long relationship with the novelist George Sand ended in 1847, and he died in Paris two years later of a chronic lung disease, usually thought to be tuberculosis.",
            ],
            works: [
                SeedWork(
                    slug: "ballade-1",
                    title: "Ballade No. 1",
                    catalogue: "Op. 23",
                    key: "G minor",
                    year: 1835,
                    genre: "Solo instrumental",
                    recordings: [
                        SeedRecording(
                            performers: "Krystian Zimerman",
                            year: 1987,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "Ballade No. 1 in G minor", seconds: 583)
                            ]
                        ),
                        SeedRecording(
                            performers: "Arthur Rubinstein",
                            year: 1959,
                            label: "RCA Victor",
                            tracks: [
                                SeedTrack(title: "Ballade No. 1 in G minor", seconds: 544)
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "nocturnes-op-9",
                    title: "Three Nocturnes",
                    catalogue: "Op. 9",
                    key: nil,
                    year: 1832,
                    genre: "Solo instrumental",
                    recordings: [
                        SeedRecording(
                            performers: "Arthur Rubinstein",
                            year: 1965,
                            label: "RCA Victor",
                            tracks: [
                                SeedTrack(title: "No. 1 in B-flat minor: Larghetto", seconds: 342),
                                SeedTrack(title: "No. 2 in E-flat major: Andante", seconds: 268),
                                SeedTrack(title: "No. 3 in B major: Allegretto", seconds: 403),
                            ]
                        ),
                        SeedRecording(
                            performers: "Maria João Pires",
                            year: 1996,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "No. 1 in B-flat minor: Larghetto", seconds: 358),
                                SeedTrack(title: "No. 2 in E-flat major: Andante", seconds: 281),
                                SeedTrack(title: "No. 3 in B major: Allegretto", seconds: 422),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "piano-sonata-2",
                    title: "Piano Sonata No. 2",
                    catalogue: "Op. 35",
                    key: "B-flat minor",
                    year: 1839,
                    genre: "Piano sonata",
                    recordings: [
                        SeedRecording(
                            performers: "Maurizio Pollini",
                            year: 1984,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Grave – Doppio movimento", seconds: 451),
                                SeedTrack(title: "II. Scherzo", seconds: 398),
                                SeedTrack(title: "III. Marche funèbre: Lento", seconds: 507),
                                SeedTrack(title: "IV. Finale: Presto", seconds: 81),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "piano-concerto-1",
                    title: "Piano Concerto No. 1",
                    catalogue: "Op. 11",
                    key: "E minor",
                    year: 1830,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Martha Argerich, London Symphony Orchestra, Claudio Abbado",
                            year: 1968,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro maestoso", seconds: 1152),
                                SeedTrack(title: "II. Romance: Larghetto", seconds: 574),
                                SeedTrack(title: "III. Rondo: Vivace", seconds: 581),
                            ]
                        ),
                        SeedRecording(
                            performers: "Krystian Zimerman, Polish Festival Orchestra",
                            year: 1999,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro maestoso", seconds: 1324),
                                SeedTrack(title: "II. Romance: Larghetto", seconds: 666),
                                SeedTrack(title: "III. Rondo: Vivace", seconds: 631),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "polonaise-heroic",
                    title: "Polonaise \"Heroic\"",
                    catalogue: "Op. 53",
                    key: "A-flat major",
                    year: 1842,
                    genre: "Solo instrumental",
                    recordings: [
                        SeedRecording(
                            performers: "Arthur Rubinstein",
                            year: 1964,
                            label: "RCA Victor",
                            tracks: [
                                SeedTrack(title: "Polonaise in A-flat major", seconds: 411)
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "schumann",
            name: "Robert Schumann",
            born: 1810,
            died: 1856,
            nationality: "German",
            period: "Romantic",
            popularity: 15,
            biography: [
                "Robert Schumann was born in Zwickau, Saxony, the son of a bookseller and publisher, and began by studying law. He took piano lessons from Friedrich Wieck, but a problem with his right hand put an end to his hopes of a concert career.",
                "He founded the Neue Zeitschrift für Musik in 1834 and used it to champion composers such as Chopin and, years later, the young Brahms. In 1840, after a legal battle with her father, he married Clara Wieck, one of the leading pianists of the age, and in that same year he wrote well over a hundred songs.",
                "Schumann lived with severe swings of mood for most of his adult life. Following a suicide attempt in 1854 he was admitted to an asylum at Endenich near Bonn, where he died two years later.",
            ],
            works: [
                SeedWork(
                    slug: "piano-concerto",
                    title: "Piano Concerto",
                    catalogue: "Op. 54",
                    key: "A minor",
                    year: 1845,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Dinu Lipatti, Philharmonia Orchestra, Herbert von Karajan",
                            year: 1948,
                            label: "EMI",
                            tracks: [
                                SeedTrack(title: "I. Allegro affettuoso", seconds: 861),
                                SeedTrack(title: "II. Intermezzo: Andantino grazioso", seconds: 302),
                                SeedTrack(title: "III. Allegro vivace", seconds: 619),
                            ]
                        ),
                        SeedRecording(
                            performers: "Radu Lupu, London Symphony Orchestra, André Previn",
                            year: 1973,
                            label: "Decca",
                            tracks: [
                                SeedTrack(title: "I. Allegro affettuoso", seconds: 918),
                                SeedTrack(title: "II. Intermezzo: Andantino grazioso", seconds: 321),
                                SeedTrack(title: "III. Allegro vivace", seconds: 642),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "kinderszenen",
                    title: "Kinderszenen (Scenes from Childhood)",
                    catalogue: "Op. 15",
                    key: nil,
                    year: 1838,
                    genre: "Solo instrumental",
                    recordings: [
                        SeedRecording(
                            performers: "Martha Argerich",
                            year: 1983,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Von fremden Ländern und Menschen", seconds: 88),
                                SeedTrack(title: "II. Kuriose Geschichte", seconds: 63),
                                SeedTrack(title: "III. Hasche-Mann", seconds: 31),
                                SeedTrack(title: "IV. Bittendes Kind", seconds: 52),
                                SeedTrack(title: "V. Glückes genug", seconds: 41),
                                SeedTrack(title: "VI. Wichtige Begebenheit", seconds: 49),
                                SeedTrack(title: "VII. Träumerei", seconds: 151),
                                SeedTrack(title: "VIII. Am Kamin", seconds: 52),
                                SeedTrack(title: "IX. Ritter vom Steckenpferd", seconds: 32),
                                SeedTrack(title: "X. Fast zu ernst", seconds: 81),
                                SeedTrack(title: "XI. Fürchtenmachen", seconds: 91),
                                SeedTrack(title: "XII. Kind im Einschlummern", seconds: 102),
                                SeedTrack(title: "XIII. Der Dichter spricht", seconds: 111),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "symphony-3-rhenish",
                    title: "Symphony No. 3 \"Rhenish\"",
                    catalogue: "Op. 97",
                    key: "E-flat major",
                    year: 1850,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "Berliner Philharmoniker, Rafael Kubelík",
                            year: 1964,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Lebhaft", seconds: 568),
                                SeedTrack(title: "II. Scherzo: Sehr mäßig", seconds: 379),
                                SeedTrack(title: "III. Nicht schnell", seconds: 338),
                                SeedTrack(title: "IV. Feierlich", seconds: 341),
                                SeedTrack(title: "V. Lebhaft", seconds: 342),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "dichterliebe",
                    title: "Dichterliebe",
                    catalogue: "Op. 48",
                    key: nil,
                    year: 1840,
                    genre: "Song cycle",
                    recordings: [
                        SeedRecording(
                            performers: "Fritz Wunderlich, Hubert Giesen",
                            year: 1965,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "1. Im wunderschönen Monat Mai", seconds: 101),
                                SeedTrack(title: "2. Aus meinen Tränen sprießen", seconds: 56),
                                SeedTrack(title: "7. Ich grolle nicht", seconds: 98),
                                SeedTrack(title: "16. Die alten, bösen Lieder", seconds: 269),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "cello-concerto",
                    title: "Cello Concerto",
                    catalogue: "Op. 129",
                    key: "A minor",
                    year: 1850,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Jacqueline du Pré, New Philharmonia Orchestra, Daniel Barenboim",
                            year: 1968,
                            label: "EMI",
                            tracks: [
                                SeedTrack(title: "I. Nicht zu schnell", seconds: 726),
                                SeedTrack(title: "II. Langsam", seconds: 292),
                                SeedTrack(title: "III. Sehr lebhaft", seconds: 478),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "brahms",
            name: "Johannes Brahms",
            born: 1833,
            died: 1897,
            nationality: "German",
            period: "Romantic",
            popularity: 9,
            biography: [
                "Johannes Brahms was born in Hamburg, where his father made a living as a double bass player, and as a teenager he helped the family by playing piano for hire. In 1853 he met Robert and Clara Schumann; Robert hailed him in print as the coming voice of German music, and Clara became a lifelong friend.",
                "He made Vienna his home from the 1860s. Brahms was a slow and severe judge of his own work who destroyed many manuscripts, and he finished his First Symphony only in 1876, when he was in his forties.",
                "His music joins Romantic warmth to the forms and counterpoint of Bach, Beethoven and older masters. Contemporaries often set him up as the conservative opposite of Wagner and Liszt, though later composers, Schoenberg among them, recognised him as an innovator.",
            ],
            works: [
                SeedWork(
                    slug: "symphony-1",
                    title: "Symphony No. 1",
                    catalogue: "Op. 68",
                    key: "C minor",
                    year: 1876,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "Berliner Philharmoniker, Herbert von Karajan",
                            year: 1963,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Un poco sostenuto – Allegro", seconds: 784),
                                SeedTrack(title: "II. Andante sostenuto", seconds: 518),
                                SeedTrack(title: "III. Un poco allegretto e grazioso", seconds: 281),
                                SeedTrack(title: "IV. Adagio – Più andante – Allegro non troppo, ma con brio", seconds: 1049),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "symphony-4",
                    title: "Symphony No. 4",
                    catalogue: "Op. 98",
                    key: "E minor",
                    year: 1885,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "Wiener Philharmoniker, Carlos Kleiber",
                            year: 1980,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro non troppo", seconds: 761),
                                SeedTrack(title: "II. Andante moderato", seconds: 698),
                                SeedTrack(title: "III. Allegro giocoso", seconds: 369),
                                SeedTrack(title: "IV. Allegro energico e passionato", seconds: 592),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "violin-concerto",
                    title: "Violin Concerto",
                    catalogue: "Op. 77",
                    key: "D major",
                    year: 1878,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Itzhak Perlman, Chicago Symphony Orchestra, Carlo Maria Giulini",
                            year: 1976,
                            label: "EMI",
                            tracks: [
                                SeedTrack(title: "I. Allegro non troppo", seconds: 1384),
                                SeedTrack(title: "II. Adagio", seconds: 559),
                                SeedTrack(title: "III. Allegro giocoso, ma non troppo vivace", seconds: 491),
                            ]
                        ),
                        SeedRecording(
                            performers: "Anne-Sophie Mutter, Berliner Philharmoniker, Herbert von Karajan",
                            year: 1981,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro non troppo", seconds: 1361),
                                SeedTrack(title: "II. Adagio", seconds: 582),
                                SeedTrack(title: "III. Allegro giocoso, ma non troppo vivace", seconds: 498),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "ein-deutsches-requiem",
                    title: "Ein deutsches Requiem",
                    catalogue: "Op. 45",
                    key: nil,
                    year: 1868,
                    genre: "Choral",
                    recordings: [
                        SeedRecording(
                            performers: "Philharmonia Chorus and Orchestra, Otto Klemperer",
                            year: 1961,
                            label: "EMI",
                            tracks: [
                                SeedTrack(title: "I. Selig sind, die da Leid tragen", seconds: 631),
                                SeedTrack(title: "II. Denn alles Fleisch, es ist wie Gras", seconds: 892),
                                SeedTrack(title: "III. Herr, lehre doch mich", seconds: 561),
                                SeedTrack(title: "IV. Wie lieblich sind deine Wohnungen", seconds: 362),
                                SeedTrack(title: "V. Ihr habt nun Traurigkeit", seconds: 448),
                                SeedTrack(title: "VI. Denn wir haben hie keine bleibende Statt", seconds: 721),
                                SeedTrack(title: "VII. Selig sind die Toten", seconds: 649),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "clarinet-quintet",
                    title: "Clarinet Quintet",
                    catalogue: "Op. 115",
                    key: "B minor",
                    year: 1891,
                    genre: "Chamber",
                    recordings: [
                        SeedRecording(
                            performers: "Karl Leister, Amadeus Quartet",
                            year: 1967,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro", seconds: 782),
                                SeedTrack(title: "II. Adagio", seconds: 688),
                                SeedTrack(title: "III. Andantino – Presto non assai", seconds: 301),
                                SeedTrack(title: "IV. Con moto", seconds: 543),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "tchaikovsky",
            name: "Pyotr Ilyich Tchaikovsky",
            born: 1840,
            died: 1893,
            nationality: "Russian",
            period: "Romantic",
            popularity: 5,
            biography: [
                "Pyotr Ilyich Tchaikovsky was born in Votkinsk, in the Russian Empire, and first trained for a career in the civil service. In 1862 he enrolled at the newly founded St Petersburg Conservatory, and he later taught harmony at the Moscow Conservatory.",
                "An annual allowance from the wealthy widow Nadezhda von Meck, with whom he corresponded for years on the understanding that they would never meet, freed him to compose full-time. His symphonies, concertos and ballets, including Swan Lake, The Sleeping Beauty and The Nutcracker, brought him international fame, and in 1891 he conducted at the opening of Carnegie Hall in New York.",
                "He died in St Petersburg in 1893, nine days after conducting the first performance of his Sixth Symphony. Cholera was given as the cause, although the circumstances of his death have been debated ever since.",
            ],
            works: [
                SeedWork(
                    slug: "symphony-6-pathetique",
                    title: "Symphony No. 6 \"Pathétique\"",
                    catalogue: "Op. 74",
                    key: "B minor",
                    year: 1893,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "Leningrad Philharmonic Orchestra, Yevgeny Mravinsky",
                            year: 1960,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Adagio – Allegro non troppo", seconds: 1082),
                                SeedTrack(title: "II. Allegro con grazia", seconds: 442),
                                SeedTrack(title: "III. Allegro molto vivace", seconds: 501),
                                SeedTrack(title: "IV. Finale: Adagio lamentoso", seconds: 589),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "piano-concerto-1",
                    title: "Piano Concerto No. 1",
                    catalogue: "Op. 23",
                    key: "B-flat minor",
                    year: 1875,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Van Cliburn, RCA Victor Symphony Orchestra, Kirill Kondrashin",
                            year: 1958,
                            label: "RCA Victor",
                            tracks: [
                                SeedTrack(title: "I. Allegro non troppo e molto maestoso – Allegro con spirito", seconds: 1204),
                                SeedTrack(title: "II. Andantino semplice – Prestissimo – Tempo I", seconds: 438),
                                SeedTrack(title: "III. Allegro con fuoco", seconds: 422),
                            ]
                        ),
                        SeedRecording(
                            performers: "Martha Argerich, Royal Philharmonic Orchestra, Charles Dutoit",
                            year: 1970,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro non troppo e molto maestoso – Allegro con spirito", seconds: 1178),
                                SeedTrack(title: "II. Andantino semplice – Prestissimo – Tempo I", seconds: 418),
                                SeedTrack(title: "III. Allegro con fuoco", seconds: 404),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "violin-concerto",
                    title: "Violin Concerto",
                    catalogue: "Op. 35",
                    key: "D major",
                    year: 1878,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Jascha Heifetz, Chicago Symphony Orchestra, Fritz Reiner",
                            year: 1957,
                            label: "RCA Victor",
                            tracks: [
                                SeedTrack(title: "I. Allegro moderato", seconds: 1024),
                                SeedTrack(title: "II. Canzonetta: Andante", seconds: 362),
                                SeedTrack(title: "III. Finale: Allegro vivacissimo", seconds: 517),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "swan-lake",
                    title: "Swan Lake",
                    catalogue: "Op. 20",
                    key: nil,
                    year: 1876,
                    genre: "Ballet",
                    recordings: [
                        SeedRecording(
                            performers: "Boston Symphony Orchestra, Seiji Ozawa",
                            year: 1978,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "Act I: Waltz", seconds: 424),
                                SeedTrack(title: "Act II: Scene (Moderato)", seconds: 171),
                                SeedTrack(title: "Act II: Dance of the Little Swans", seconds: 89),
                                SeedTrack(title: "Act III: Hungarian Dance (Czardas)", seconds: 161),
                                SeedTrack(title: "Act IV: Final Scene", seconds: 412),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "the-nutcracker",
                    title: "The Nutcracker",
                    catalogue: "Op. 71",
                    key: nil,
                    year: 1892,
                    genre: "Ballet",
                    recordings: [
                        SeedRecording(
                            performers: "London Symphony Orchestra, André Previn",
                            year: 1972,
                            label: "EMI",
                            tracks: [
                                SeedTrack(title: "Miniature Overture", seconds: 201),
                                SeedTrack(title: "March", seconds: 139),
                                SeedTrack(title: "Dance of the Sugar Plum Fairy", seconds: 118),
                                SeedTrack(title: "Russian Dance (Trepak)", seconds: 69),
                                SeedTrack(title: "Waltz of the Flowers", seconds: 412),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "dvorak",
            name: "Antonín Dvořák",
            born: 1841,
            died: 1904,
            nationality: "Czech",
            period: "Romantic",
            popularity: 12,
            biography: [
                "Antonín Dvořák was born in Nelahozeves, a village north of Prague, where his father was a butcher and innkeeper. He trained at the organ school in Prague and spent about a decade playing viola in the orchestra of the city's Provisional Theatre.",
                "His breakthrough came when Brahms, who had assessed his entries for an Austrian state grant, recommended him to the publisher Simrock. The Slavonic Dances, issued in 1878, were an immediate success and made his name abroad, particularly in England, which he visited many times.",
                "From 1892 to 1895 he directed the National Conservatory of Music in New York, where he wrote the New World Symphony and the American Quartet. After returning to Bohemia he taught at the Prague Conservatory and devoted his final years largely to opera, of which Rusalka is the best known.",
            ],
            works: [
                SeedWork(
                    slug: "symphony-9-new-world",
                    title: "Symphony No. 9 \"From the New World\"",
                    catalogue: "Op. 95",
                    key: "E minor",
                    year: 1893,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "Berliner Philharmoniker, Rafael Kubelík",
                            year: 1972,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Adagio – Allegro molto", seconds: 571),
                                SeedTrack(title: "II. Largo", seconds: 729),
                                SeedTrack(title: "III. Scherzo: Molto vivace", seconds: 468),
                                SeedTrack(title: "IV. Allegro con fuoco", seconds: 666),
                            ]
                        ),
                        SeedRecording(
                            performers: "London Symphony Orchestra, István Kertész",
                            year: 1966,
                            label: "Decca",
                            tracks: [
                                SeedTrack(title: "I. Adagio – Allegro molto", seconds: 592),
                                SeedTrack(title: "II. Largo", seconds: 758),
                                SeedTrack(title: "III. Scherzo: Molto vivace", seconds: 471),
                                SeedTrack(title: "IV. Allegro con fuoco", seconds: 649),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "cello-concerto",
                    title: "Cello Concerto",
                    catalogue: "Op. 104",
                    key: "B minor",
                    year: 1895,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Mstislav Rostropovich, Berliner Philharmoniker, Herbert von Karajan",
                            year: 1968,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro", seconds: 938),
                                SeedTrack(title: "II. Adagio ma non troppo", seconds: 738),
                                SeedTrack(title: "III. Finale: Allegro moderato", seconds: 778),
                            ]
                        ),
                        SeedRecording(
                            performers: "Jacqueline du Pré, Chicago Symphony Orchestra, Daniel Barenboim",
                            year: 1970,
                            label: "EMI",
                            tracks: [
                                SeedTrack(title: "I. Allegro", seconds: 902),
                                SeedTrack(title: "II. Adagio ma non troppo", seconds: 751),
                                SeedTrack(title: "III. Finale: Allegro moderato", seconds: 759),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "symphony-8",
                    title: "Symphony No. 8",
                    catalogue: "Op. 88",
                    key: "G major",
                    year: 1889,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "Wiener Philharmoniker, Herbert von Karajan",
                            year: 1985,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro con brio", seconds: 608),
                                SeedTrack(title: "II. Adagio", seconds: 641),
                                SeedTrack(title: "III. Allegretto grazioso – Molto vivace", seconds: 372),
                                SeedTrack(title: "IV. Allegro ma non troppo", seconds: 578),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "string-quartet-12-american",
                    title: "String Quartet No. 12 \"American\"",
                    catalogue: "Op. 96",
                    key: "F major",
                    year: 1893,
                    genre: "Chamber",
                    recordings: [
                        SeedRecording(
                            performers: "Emerson String Quartet",
                            year: 1984,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegro ma non troppo", seconds: 578),
                                SeedTrack(title: "II. Lento", seconds: 461),
                                SeedTrack(title: "III. Molto vivace", seconds: 238),
                                SeedTrack(title: "IV. Finale: Vivace ma non troppo", seconds: 339),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "slavonic-dances-op-46",
                    title: "Slavonic Dances, Series I",
                    catalogue: "Op. 46",
                    key: nil,
                    year: 1878,
                    genre: "Orchestral",
                    recordings: [
                        SeedRecording(
                            performers: "Symphonieorchester des Bayerischen Rundfunks, Rafael Kubelík",
                            year: 1974,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Presto (C major)", seconds: 231),
                                SeedTrack(title: "II. Allegretto scherzando (E minor)", seconds: 282),
                                SeedTrack(title: "III. Poco allegro (A-flat major)", seconds: 268),
                                SeedTrack(title: "IV. Tempo di minuetto (F major)", seconds: 418),
                                SeedTrack(title: "V. Allegro vivace (A major)", seconds: 199),
                                SeedTrack(title: "VI. Allegretto scherzando (D major)", seconds: 298),
                                SeedTrack(title: "VII. Allegro assai (C minor)", seconds: 198),
                                SeedTrack(title: "VIII. Presto (G minor)", seconds: 242),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "debussy",
            name: "Claude Debussy",
            born: 1862,
            died: 1918,
            nationality: "French",
            period: "Impressionist",
            popularity: 7,
            biography: [
                "Claude Debussy was born in Saint-Germain-en-Laye, west of Paris, and was admitted to the Paris Conservatoire at the age of ten. In 1884 he won the Prix de Rome, which brought him a residency at the Villa Medici in Rome.",
                "He developed a harmonic language that loosened the pull of traditional keys, drawing on whole-tone and pentatonic scales and on the Javanese gamelan he heard at the Paris Exposition of 1889. The Prélude à l'après-midi d'un faune and the opera Pelléas et Mélisande established him as a leading figure of French music.",
                "Debussy rejected the label Impressionism that critics attached to his work. He died of cancer in Paris in March 1918, while the city was under German bombardment in the final year of the First World War.",
            ],
            works: [
                SeedWork(
                    slug: "prelude-a-lapres-midi-dun-faune",
                    title: "Prélude à l'après-midi d'un faune",
                    catalogue: "L. 86",
                    key: "E major",
                    year: 1894,
                    genre: "Orchestral",
                    recordings: [
                        SeedRecording(
                            performers: "Berliner Philharmoniker, Herbert von Karajan",
                            year: 1964,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "Prélude à l'après-midi d'un faune", seconds: 618)
                            ]
                        ),
                        SeedRecording(
                            performers: "The Cleveland Orchestra, Pierre Boulez",
                            year: 1991,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "Prélude à l'après-midi d'un faune", seconds: 587)
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "la-mer",
                    title: "La mer",
                    catalogue: "L. 109",
                    key: nil,
                    year: 1905,
                    genre: "Orchestral",
                    recordings: [
                        SeedRecording(
                            performers: "The Cleveland Orchestra, Pierre Boulez",
                            year: 1993,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. De l'aube à midi sur la mer", seconds: 531),
                                SeedTrack(title: "II. Jeux de vagues", seconds: 398),
                                SeedTrack(title: "III. Dialogue du vent et de la mer", seconds: 492),
                            ]
                        ),
                        SeedRecording(
                            performers: "Berliner Philharmoniker, Herbert von Karajan",
                            year: 1964,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. De l'aube à midi sur la mer", seconds: 542),
                                SeedTrack(title: "II. Jeux de vagues", seconds: 409),
                                SeedTrack(title: "III. Dialogue du vent et de la mer", seconds: 511),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "suite-bergamasque",
                    title: "Suite bergamasque",
                    catalogue: "L. 75",
                    key: nil,
                    year: 1905,
                    genre: "Solo instrumental",
                    recordings: [
                        SeedRecording(
                            performers: "Walter Gieseking",
                            year: 1953,
                            label: "EMI",
                            tracks: [
                                SeedTrack(title: "I. Prélude", seconds: 238),
                                SeedTrack(title: "II. Menuet", seconds: 229),
                                SeedTrack(title: "III. Clair de lune", seconds: 271),
                                SeedTrack(title: "IV. Passepied", seconds: 198),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "preludes-book-1",
                    title: "Préludes, Book 1",
                    catalogue: "L. 117",
                    key: nil,
                    year: 1910,
                    genre: "Solo instrumental",
                    recordings: [
                        SeedRecording(
                            performers: "Arturo Benedetti Michelangeli",
                            year: 1978,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Danseuses de Delphes", seconds: 211),
                                SeedTrack(title: "II. Voiles", seconds: 259),
                                SeedTrack(title: "III. Le vent dans la plaine", seconds: 129),
                                SeedTrack(title: "IV. Les sons et les parfums tournent dans l'air du soir", seconds: 221),
                                SeedTrack(title: "V. Les collines d'Anacapri", seconds: 182),
                                SeedTrack(title: "VI. Des pas sur la neige", seconds: 278),
                                SeedTrack(title: "VII. Ce qu'a vu le vent d'ouest", seconds: 198),
                                SeedTrack(title: "VIII. La fille aux cheveux de lin", seconds: 161),
                                SeedTrack(title: "IX. La sérénade interrompue", seconds: 141),
                                SeedTrack(title: "X. La cathédrale engloutie", seconds: 379),
                                SeedTrack(title: "XI. La danse de Puck", seconds: 168),
                                SeedTrack(title: "XII. Minstrels", seconds: 139),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "string-quartet",
                    title: "String Quartet",
                    catalogue: "Op. 10, L. 85",
                    key: "G minor",
                    year: 1893,
                    genre: "Chamber",
                    recordings: [
                        SeedRecording(
                            performers: "Quartetto Italiano",
                            year: 1965,
                            label: "Philips",
                            tracks: [
                                SeedTrack(title: "I. Animé et très décidé", seconds: 391),
                                SeedTrack(title: "II. Assez vif et bien rythmé", seconds: 242),
                                SeedTrack(title: "III. Andantino, doucement expressif", seconds: 458),
                                SeedTrack(title: "IV. Très modéré – Très mouvementé et avec passion", seconds: 439),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "ravel",
            name: "Maurice Ravel",
            born: 1875,
            died: 1937,
            nationality: "French",
            period: "Impressionist",
            popularity: 14,
            biography: [
                "Maurice Ravel was born in Ciboure, in the French Basque country, and grew up in Paris, where he studied at the Conservatoire and later in Gabriel Fauré's composition class. His repeated failure to win the Prix de Rome became a public scandal in 1905 and led to the resignation of the Conservatoire's director.",
                "He was admired for precise craftsmanship and dazzling orchestration, and his orchestral version of Mussorgsky's Pictures at an Exhibition is the one most often played. His output includes the ballet Daphnis et Chloé, the piano triptych Gaspard de la nuit and Boléro, which became the most famous piece he wrote.",
                "During the First World War he served as a military driver, and in 1928 he made a highly successful tour of North America. In his final years a neurological illness gradually robbed him of the ability to compose, and he died in Paris in 1937 following brain surgery.",
            ],
            works: [
                SeedWork(
                    slug: "bolero",
                    title: "Boléro",
                    catalogue: "M. 81",
                    key: "C major",
                    year: 1928,
                    genre: "Orchestral",
                    recordings: [
                        SeedRecording(
                            performers: "Berliner Philharmoniker, Herbert von Karajan",
                            year: 1966,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "Boléro", seconds: 958)
                            ]
                        ),
                        SeedRecording(
                            performers: "Orchestre symphonique de Montréal, Charles Dutoit",
                            year: 1981,
                            label: "Decca",
                            tracks: [
                                SeedTrack(title: "Boléro", seconds: 909)
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "piano-concerto-in-g",
                    title: "Piano Concerto in G",
                    catalogue: "M. 83",
                    key: "G major",
                    year: 1931,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Martha Argerich, Berliner Philharmoniker, Claudio Abbado",
                            year: 1967,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegramente", seconds: 497),
                                SeedTrack(title: "II. Adagio assai", seconds: 512),
                                SeedTrack(title: "III. Presto", seconds: 236),
                            ]
                        ),
                        SeedRecording(
                            performers: "Krystian Zimerman, The Cleveland Orchestra, Pierre Boulez",
                            year: 1994,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegramente", seconds: 509),
                                SeedTrack(title: "II. Adagio assai", seconds: 542),
                                SeedTrack(title: "III. Presto", seconds: 241),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "daphnis-et-chloe-suite-2",
                    title: "Daphnis et Chloé, Suite No. 2",
                    catalogue: "M. 57b",
                    key: nil,
                    year: 1912,
                    genre: "Orchestral",
                    recordings: [
                        SeedRecording(
                            performers: "Berliner Philharmoniker, Herbert von Karajan",
                            year: 1964,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Lever du jour", seconds: 348),
                                SeedTrack(title: "II. Pantomime", seconds: 312),
                                SeedTrack(title: "III. Danse générale", seconds: 261),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "gaspard-de-la-nuit",
                    title: "Gaspard de la nuit",
                    catalogue: "M. 55",
                    key: nil,
                    year: 1908,
                    genre: "Solo instrumental",
                    recordings: [
                        SeedRecording(
                            performers: "Martha Argerich",
                            year: 1974,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Ondine", seconds: 372),
                                SeedTrack(title: "II. Le gibet", seconds: 381),
                                SeedTrack(title: "III. Scarbo", seconds: 519),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "string-quartet",
                    title: "String Quartet",
                    catalogue: "M. 35",
                    key: "F major",
                    year: 1903,
                    genre: "Chamber",
                    recordings: [
                        SeedRecording(
                            performers: "Quartetto Italiano",
                            year: 1965,
                            label: "Philips",
                            tracks: [
                                SeedTrack(title: "I. Allegro moderato – Très doux", seconds: 484),
                                SeedTrack(title: "II. Assez vif – Très rythmé", seconds: 369),
                                SeedTrack(title: "III. Très lent", seconds: 521),
                                SeedTrack(title: "IV. Vif et agité", seconds: 311),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "rachmaninoff",
            name: "Sergei Rachmaninoff",
            born: 1873,
            died: 1943,
            nationality: "Russian",
            period: "Late Romantic",
            popularity: 8,
            biography: [
                "Sergei Rachmaninoff was born into a landowning family in the Novgorod region of Russia and studied at the St Petersburg and Moscow conservatories. The disastrous premiere of his First Symphony in 1897 shook his confidence and was followed by a long creative silence.",
                "With the help of the physician Nikolai Dahl he recovered and completed his Second Piano Concerto, which he dedicated to Dahl. He was one of the outstanding pianists of his time, and his music is marked by broad, singing melodies and rich harmony.",
                "After the revolution of 1917 he left Russia for good, living first in Scandinavia and then chiefly in the United States. Concert tours took most of his energy and he composed comparatively little in exile; he died in Beverly Hills in 1943.",
            ],
            works: [
                SeedWork(
                    slug: "piano-concerto-2",
                    title: "Piano Concerto No. 2",
                    catalogue: "Op. 18",
                    key: "C minor",
                    year: 1901,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Sviatoslav Richter, Warsaw Philharmonic Orchestra, Stanisław Wisłocki",
                            year: 1959,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Moderato", seconds: 686),
                                SeedTrack(title: "II. Adagio sostenuto", seconds: 714),
                                SeedTrack(title: "III. Allegro scherzando", seconds: 693),
                            ]
                        ),
                        SeedRecording(
                            performers: "Sergei Rachmaninoff, Philadelphia Orchestra, Leopold Stokowski",
                            year: 1929,
                            label: "RCA Victor",
                            tracks: [
                                SeedTrack(title: "I. Moderato", seconds: 596),
                                SeedTrack(title: "II. Adagio sostenuto", seconds: 638),
                                SeedTrack(title: "III. Allegro scherzando", seconds: 641),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "piano-concerto-3",
                    title: "Piano Concerto No. 3",
                    catalogue: "Op. 30",
                    key: "D minor",
                    year: 1909,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Martha Argerich, Radio-Symphonie-Orchester Berlin, Riccardo Chailly",
                            year: 1982,
                            label: "Philips",
                            tracks: [
                                SeedTrack(title: "I. Allegro ma non tanto", seconds: 941),
                                SeedTrack(title: "II. Intermezzo: Adagio", seconds: 592),
                                SeedTrack(title: "III. Finale: Alla breve", seconds: 788),
                            ]
                        ),
                        SeedRecording(
                            performers: "Vladimir Horowitz, New York Philharmonic, Eugene Ormandy",
                            year: 1978,
                            label: "RCA Red Seal",
                            tracks: [
                                SeedTrack(title: "I. Allegro ma non tanto", seconds: 952),
                                SeedTrack(title: "II. Intermezzo: Adagio", seconds: 611),
                                SeedTrack(title: "III. Finale: Alla breve", seconds: 819),
                            ]
                        ),
                    ]
                ),
                SeedWork(
                    slug: "symphony-2",
                    title: "Symphony No. 2",
                    catalogue: "Op. 27",
                    key: "E minor",
                    year: 1907,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "London Symphony Orchestra, André Previn",
                            year: 1973,
                            label: "EMI",
                            tracks: [
                                SeedTrack(title: "I. Largo – Allegro moderato", seconds: 1121),
                                SeedTrack(title: "II. Allegro molto", seconds: 591),
                                SeedTrack(title: "III. Adagio", seconds: 878),
                                SeedTrack(title: "IV. Allegro vivace", seconds: 822),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "prelude-op-3-2",
                    title: "Prelude",
                    catalogue: "Op. 3 No. 2",
                    key: "C-sharp minor",
                    year: 1892,
                    genre: "Solo instrumental",
                    recordings: [
                        SeedRecording(
                            performers: "Sergei Rachmaninoff",
                            year: 1928,
                            label: "RCA Victor",
                            tracks: [
                                SeedTrack(title: "Prelude in C-sharp minor", seconds: 218)
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "symphonic-dances",
                    title: "Symphonic Dances",
                    catalogue: "Op. 45",
                    key: nil,
                    year: 1940,
                    genre: "Orchestral",
                    recordings: [
                        SeedRecording(
                            performers: "Concertgebouw Orchestra, Vladimir Ashkenazy",
                            year: 1983,
                            label: "Decca",
                            tracks: [
                                SeedTrack(title: "I. Non allegro", seconds: 652),
                                SeedTrack(title: "II. Andante con moto (Tempo di valse)", seconds: 581),
                                SeedTrack(title: "III. Lento assai – Allegro vivace", seconds: 808),
                            ]
                        )
                    ]
                ),
            ]
        ),
        SeedComposer(
            slug: "shostakovich",
            name: "Dmitri Shostakovich",
            born: 1906,
            died: 1975,
            nationality: "Russian",
            period: "20th century",
            popularity: 16,
            biography: [
                "Dmitri Shostakovich was born in St Petersburg and studied piano and composition at the Petrograd Conservatory. His First Symphony, written as his graduation work and premiered in 1926, quickly won him international attention.",
                "In 1936 the party newspaper Pravda attacked his opera Lady Macbeth of the Mtsensk District, and he withdrew his Fourth Symphony before its premiere. The Fifth Symphony of 1937 restored his official standing, and the Seventh, composed partly during the siege of Leningrad, became a symbol of resistance in the Soviet Union and abroad.",
                "He was condemned again in 1948 and for some years held back several works from publication. Besides fifteen symphonies he wrote fifteen string quartets, concertos, operas and many film scores, and the degree of irony and hidden meaning in his music is still argued over.",
            ],
            works: [
                SeedWork(
                    slug: "symphony-5",
                    title: "Symphony No. 5",
                    catalogue: "Op. 47",
                    key: "D minor",
                    year: 1937,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "New York Philharmonic, Leonard Bernstein",
                            year: 1959,
                            label: "Columbia Masterworks",
                            tracks: [
                                SeedTrack(title: "I. Moderato", seconds: 958),
                                SeedTrack(title: "II. Allegretto", seconds: 303),
                                SeedTrack(title: "III. Largo", seconds: 892),
                                SeedTrack(title: "IV. Allegro non troppo", seconds: 542),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "string-quartet-8",
                    title: "String Quartet No. 8",
                    catalogue: "Op. 110",
                    key: "C minor",
                    year: 1960,
                    genre: "Chamber",
                    recordings: [
                        SeedRecording(
                            performers: "Emerson String Quartet",
                            year: 1999,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Largo", seconds: 288),
                                SeedTrack(title: "II. Allegro molto", seconds: 161),
                                SeedTrack(title: "III. Allegretto", seconds: 249),
                                SeedTrack(title: "IV. Largo", seconds: 302),
                                SeedTrack(title: "V. Largo", seconds: 211),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "piano-concerto-2",
                    title: "Piano Concerto No. 2",
                    catalogue: "Op. 102",
                    key: "F major",
                    year: 1957,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Leonard Bernstein, New York Philharmonic",
                            year: 1958,
                            label: "Columbia Masterworks",
                            tracks: [
                                SeedTrack(title: "I. Allegro", seconds: 401),
                                SeedTrack(title: "II. Andante", seconds: 362),
                                SeedTrack(title: "III. Allegro", seconds: 319),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "cello-concerto-1",
                    title: "Cello Concerto No. 1",
                    catalogue: "Op. 107",
                    key: "E-flat major",
                    year: 1959,
                    genre: "Concerto",
                    recordings: [
                        SeedRecording(
                            performers: "Mstislav Rostropovich, Philadelphia Orchestra, Eugene Ormandy",
                            year: 1959,
                            label: "Columbia Masterworks",
                            tracks: [
                                SeedTrack(title: "I. Allegretto", seconds: 347),
                                SeedTrack(title: "II. Moderato", seconds: 652),
                                SeedTrack(title: "III. Cadenza", seconds: 321),
                                SeedTrack(title: "IV. Allegro con moto", seconds: 279),
                            ]
                        )
                    ]
                ),
                SeedWork(
                    slug: "symphony-7-leningrad",
                    title: "Symphony No. 7 \"Leningrad\"",
                    catalogue: "Op. 60",
                    key: "C major",
                    year: 1941,
                    genre: "Symphony",
                    recordings: [
                        SeedRecording(
                            performers: "Chicago Symphony Orchestra, Leonard Bernstein",
                            year: 1988,
                            label: "Deutsche Grammophon",
                            tracks: [
                                SeedTrack(title: "I. Allegretto", seconds: 1876),
                                SeedTrack(title: "II. Moderato (poco allegretto)", seconds: 870),
                                SeedTrack(title: "III. Adagio", seconds: 1195),
                                SeedTrack(title: "IV. Allegro non troppo", seconds: 1090),
                            ]
                        )
                    ]
                ),
            ]
        ),
    ]
}
