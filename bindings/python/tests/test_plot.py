"""Reader.plot() draws the blocks with matplotlib (Agg backend) from the block index, and `dbdf map` writes an SVG
that a real XML parser reads, with one rectangle per block."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import matplotlib
import numpy as np
import pytest

import dbdf

matplotlib.use("Agg")

SVG = "{http://www.w3.org/2000/svg}"


def write_tiles(path, rows=6, cols=8, block=(2, 4)) -> None:
    """A rows x cols matrix in blocks of `block`: every other block all zeros (so empty), the rest dense or sparse."""
    values = np.zeros((rows, cols))
    values[0:2, 0:4] = np.arange(8).reshape(2, 4) + 1  # dense
    values[2, 4] = 7.5  # one value: sparse
    with dbdf.Writer(path) as writer:
        writer.begin_matrix("dense", "float64", rows, cols)
        for row in range(0, rows, block[0]):
            for col in range(0, cols, block[1]):
                writer.add_dense(row, col, values[row:row + block[0], col:col + block[1]])


def test_plot_draws_one_rectangle_per_block_coloured_by_type(tmp_path):
    path = tmp_path / "tiles.dbdf"
    write_tiles(path)
    with dbdf.Reader(path) as reader:
        figure = reader.plot(title="tiles")
        blocks = [reader.index_entry(i) for i in range(len(reader))]
    axes = figure.axes[0]
    (collection,) = axes.collections
    assert len(collection.get_paths()) == len(blocks) == 6
    colours = collection.get_facecolors()
    expected = {dbdf.BlockType.EMPTY: "#d9d9d9", dbdf.BlockType.DENSE: "#1f77b4", dbdf.BlockType.CSR: "#2ca02c",
                dbdf.BlockType.COO: "#d62728"}
    for block, colour in zip(blocks, colours):
        assert matplotlib.colors.to_hex(colour[:3]) == expected[block.block_type]
    # The full dense block is solid; a block storing 1 value of 8 is pale.
    by_index = {block.index: colour for block, colour in zip(blocks, colours)}
    assert by_index[0][3] == pytest.approx(1.0)
    sparse = next(b for b in blocks if b.row == 2 and b.col == 4)
    assert sparse.block_type in (dbdf.BlockType.CSR, dbdf.BlockType.COO)
    assert by_index[sparse.index][3] == pytest.approx(0.3 + 0.7 / 8)
    assert "tiles" in axes.get_title() and "6 x 8 dense of f64" in axes.get_title()
    assert axes.get_ylim() == (6, 0)  # row 0 on top
    figure.savefig(tmp_path / "tiles.png")  # renders with Agg
    assert (tmp_path / "tiles.png").stat().st_size > 1000


def test_plot_aggregates_many_blocks_into_an_image(tmp_path):
    path = tmp_path / "many.dbdf"
    with dbdf.Writer(path) as writer:
        writer.begin_matrix("dense", "float64", 101, 101)  # 10,201 blocks: just above what is drawn one by one
        for row in range(101):
            for col in range(101):
                writer.add_empty(row, col, (1, 1))
    with dbdf.Reader(path) as reader:
        figure = reader.plot()
    axes = figure.axes[0]
    assert not axes.collections
    (image,) = axes.images
    assert image.get_array().shape == (101, 101, 4)
    assert np.allclose(image.get_array()[..., :3], matplotlib.colors.to_rgb("#d9d9d9"))  # every cell empty
    assert "10201 blocks, drawn as a 160 x 160 grid" in axes.get_title()


def test_plot_without_matplotlib_says_what_is_missing(tmp_path):
    path = tmp_path / "tiles.dbdf"
    write_tiles(path)
    script = ("import sys, dbdf\nsys.modules['matplotlib'] = None\n"
              f"try:\n    dbdf.Reader({str(path)!r}).plot()\nexcept ImportError as e:\n    print(e)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=os.environ)
    assert result.returncode == 0, result.stderr
    assert "optional dependency" in result.stdout and "pip install matplotlib" in result.stdout


@pytest.mark.skipif(not os.environ.get("DBDF_CLI"), reason="DBDF_CLI (the dbdf tool) is not set")
def test_cli_map_writes_svg_an_xml_parser_reads(tmp_path):
    path = tmp_path / "ti<les>&.dbdf"
    write_tiles(path)
    svg = tmp_path / "tiles.svg"
    result = subprocess.run([os.environ["DBDF_CLI"], "map", str(path), str(svg)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    root = ElementTree.parse(svg).getroot()
    assert root.tag == SVG + "svg"
    blocks = [rect for rect in root.iter(SVG + "rect") if rect.get("class") == "block"]
    assert len(blocks) == 6
    titles = [rect.find(SVG + "title").text for rect in blocks]
    assert titles[0].startswith("block 0 at (0, 0): 2 x 4, dense, u8, 8 stored values")
    assert str(path) in root.find(SVG + "title").text
