"""Reading a photo of a printed sheet (``labkit read``; docs/design/reader.md).

The core here knows no game: it finds the fiducial markers of a sheet made
to be read (:mod:`reader.fiducials`), rectifies the page by homography and
corrects its light from the paper's white (:mod:`reader.page`), and offers
the measurements a game's reader makes on it (:mod:`reader.marks`, the
letter classifier :mod:`reader.letters`). Each game reads its own sheet
into its own paper format in ``reader/games/<game>/``, named by its
descriptor's ``reader``.
"""
